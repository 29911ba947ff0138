import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { decodeBody } from '../../libs/scrape/content/src/decode/decode-body.util';
import { scorePage, type PageScore } from '../../libs/scrape/content/src/quality/page-score.util';
import { loadWcxbPages } from '../../libs/scrape/content/src/quality/wcxb-dataset.util';
import { EXTRACTORS, type ExtractorName } from './extractors';

interface Job {
  dir: string;
  extractors: ExtractorName[];
  shard: number;
  shards: number;
  /** Directory per baseline for cached markdown (baselines are slow and never change), if caching. */
  cacheDirs: Partial<Record<ExtractorName, string>>;
}

const job = workerData as Job;
const results: Record<string, PageScore[]> = {};
const pages = loadWcxbPages(job.dir).filter((_, i) => i % job.shards === job.shard);
for (const name of job.extractors) {
  const extractor = EXTRACTORS[name];
  results[name] = pages.map((page) => {
    const html = decodeBody(page.html).text;
    const cacheDir = job.cacheDirs[name];
    const cached = cacheDir ? join(cacheDir, `${page.id}.md`) : undefined;
    if (cached && existsSync(cached)) return scorePage(page, readFileSync(cached, 'utf8'));
    // The fallback variant equals the plain one wherever Readability found something.
    const plainDir = job.cacheDirs['readability-jsdom'];
    const plain = plainDir ? join(plainDir, `${page.id}.md`) : undefined;
    if (name === 'readability-jsdom-fallback' && plain && existsSync(plain)) {
      const text = readFileSync(plain, 'utf8');
      if (text) return scorePage(page, text);
    }
    let markdown = '';
    try {
      markdown = extractor.run(html, page.url);
    } catch {
      markdown = '';
    }
    if (cacheDir && cached) {
      mkdirSync(cacheDir, { recursive: true });
      writeFileSync(cached, markdown);
    }
    return scorePage(page, markdown);
  });
}
parentPort?.postMessage(results);
