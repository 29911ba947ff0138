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
}

const job = workerData as Job;
const results: Record<string, PageScore[]> = {};
const pages = loadWcxbPages(job.dir).filter((_, i) => i % job.shards === job.shard);
for (const name of job.extractors) {
  const extractor = EXTRACTORS[name];
  results[name] = pages.map((page) => {
    const html = decodeBody(page.html).text;
    let markdown = '';
    try {
      markdown = extractor.run(html, page.url);
    } catch {
      markdown = '';
    }
    return scorePage(page, markdown);
  });
}
parentPort?.postMessage(results);
