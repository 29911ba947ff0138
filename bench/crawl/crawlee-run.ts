/**
 * The baseline: Crawlee's CheerioCrawler crawling the benchmark site (bench/ dependency only).
 * `node -r @swc-node/register bench/crawl/crawlee-run.ts <url> <concurrency> <plain|markdown>`
 * prints `{pages, seconds, markdownPages}`. `markdown` also turns each page's main element into
 * markdown with Turndown, as a Crawlee user would to get markdown.
 */
import { CheerioCrawler, Configuration, log, LogLevel } from 'crawlee';
import TurndownService from 'turndown';

async function main(): Promise<void> {
  const [url, concurrencyText, mode] = process.argv.slice(2);
  const concurrency = Number(concurrencyText);
  log.setLevel(LogLevel.WARNING);
  const config = new Configuration({ persistStorage: false, purgeOnStart: true });
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  let pages = 0;
  let markdownPages = 0;
  const crawler = new CheerioCrawler(
    {
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      maxRequestRetries: 0,
      requestHandlerTimeoutSecs: 60,
      async requestHandler({ $, enqueueLinks }) {
        pages += 1;
        if (mode === 'markdown') {
          const markdown = turndown.turndown($('main').html() ?? $('body').html() ?? '');
          if (markdown.length > 0) markdownPages += 1;
        }
        await enqueueLinks({ strategy: 'same-hostname' });
      },
    },
    config,
  );
  const started = performance.now();
  const cpu = process.cpuUsage();
  await crawler.run([`${url}/`]);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  process.stdout.write(
    `${JSON.stringify({ pages, seconds, cpuSeconds: (used.user + used.system) / 1e6, markdownPages })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
