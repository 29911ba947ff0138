"""Benchmark harness only: runs trafilatura (PyPI) over pages given on stdin.

Reads JSON lines {"id","url","html"}, writes {"id","text","cpuMs"} per page. Settings: plain text
output, comments left out (they are not main content), tables kept (trafilatura's default), the
page URL passed. `--repeat N` extracts each page N times and reports the fastest run.
"""
import json
import sys
import time

import trafilatura


def main() -> None:
    args = sys.argv[1:]
    repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 1
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        page = json.loads(line)
        best = float("inf")
        text, error = "", None
        for _ in range(max(1, repeat)):
            start = time.thread_time()
            try:
                text = trafilatura.extract(
                    page["html"],
                    url=page.get("url"),
                    output_format="txt",
                    include_comments=False,
                    include_tables=True,
                ) or ""
            except Exception as exc:  # a crash on one page scores that page as empty
                error = repr(exc)
            best = min(best, (time.thread_time() - start) * 1000)
        out.write(json.dumps({"id": page["id"], "text": text, "cpuMs": best, "error": error}) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
