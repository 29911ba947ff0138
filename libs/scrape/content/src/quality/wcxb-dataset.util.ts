import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { datasetDir } from './dataset-dir.util';

export interface WcxbPage {
  id: string;
  url: string;
  pageType: string;
  /** Raw bytes of the page as fetched. */
  html: Uint8Array;
  mainContent: string;
  withSnippets: string[];
  withoutSnippets: string[];
}

interface GroundTruthFile {
  url: string;
  _internal?: { page_type?: { primary?: string } };
  ground_truth: { main_content?: string; with?: string[]; without?: string[] };
}

/** The WCXB development subset (`WCXB_DIR`, else `shared/data/wcxb-dev` beside the repository). */
export function wcxbDatasetDir(repoRoot: string, override?: string): string | undefined {
  return datasetDir(repoRoot, 'wcxb-dev', override);
}

/** Pages with a reference main content, in file order. */
export function loadWcxbPages(dir: string): WcxbPage[] {
  const pages: WcxbPage[] = [];
  for (const file of readdirSync(join(dir, 'ground-truth')).sort()) {
    if (!file.endsWith('.json')) continue;
    const id = file.slice(0, -'.json'.length);
    const truth = JSON.parse(readFileSync(join(dir, 'ground-truth', file), 'utf8')) as GroundTruthFile;
    const htmlPath = join(dir, 'html', `${id}.html.gz`);
    if (!truth.ground_truth.main_content || !existsSync(htmlPath)) continue;
    pages.push({
      id,
      url: truth.url,
      pageType: truth._internal?.page_type?.primary ?? 'unknown',
      html: gunzipSync(readFileSync(htmlPath)),
      mainContent: truth.ground_truth.main_content,
      withSnippets: truth.ground_truth.with ?? [],
      withoutSnippets: truth.ground_truth.without ?? [],
    });
  }
  return pages;
}

export { isHeldOut } from './dataset-dir.util';
