//! Reads JSON lines `{"id","url","html"}` on stdin, writes `{"id","text","cpuMs"}` per page on stdout.
//! `--no-url` leaves the page URL out (rs-trafilatura uses it for page-type classification).
//! `--repeat N` extracts each page N times and reports the fastest run (speed measurements).
use rs_trafilatura::{extract_with_options, Options};
use serde::{Deserialize, Serialize};
use std::io::{self, BufRead, BufWriter, Write};

#[derive(Deserialize)]
struct Page {
    id: String,
    url: Option<String>,
    html: String,
}

#[derive(Serialize)]
struct Output<'a> {
    id: &'a str,
    text: String,
    #[serde(rename = "cpuMs")]
    cpu_ms: f64,
    error: Option<String>,
}

/// CPU time of this thread in milliseconds.
fn thread_cpu_ms() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes into the timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let with_url = !args.iter().any(|a| a == "--no-url");
    let repeat = args
        .iter()
        .position(|a| a == "--repeat")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(1)
        .max(1);
    let stdin = io::stdin();
    let mut out = BufWriter::new(io::stdout());
    for line in stdin.lock().lines() {
        let line = line.expect("stdin");
        if line.trim().is_empty() {
            continue;
        }
        let page: Page = serde_json::from_str(&line).expect("page JSON");
        let options = Options {
            url: if with_url { page.url.clone() } else { None },
            ..Options::default()
        };
        let mut best = f64::INFINITY;
        let mut text = String::new();
        let mut error = None;
        for _ in 0..repeat {
            let start = thread_cpu_ms();
            let result = extract_with_options(&page.html, &options);
            let spent = thread_cpu_ms() - start;
            best = best.min(spent);
            match result {
                Ok(r) => text = r.content_text,
                Err(e) => error = Some(e.to_string()),
            }
        }
        let output = Output { id: &page.id, text, cpu_ms: best, error };
        serde_json::to_writer(&mut out, &output).expect("stdout");
        out.write_all(b"\n").expect("stdout");
    }
    out.flush().expect("stdout");
}
