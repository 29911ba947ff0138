import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { datasetDir } from './dataset-dir.util';

export type NewsSource = 'dragnet' | 'trafilatura-eval';

export interface NewsPage {
  id: string;
  /** Canonical URL when known (some Dragnet pages have none). */
  url: string | undefined;
  source: NewsSource;
  /** Raw bytes of the page as stored. */
  html: Uint8Array;
  /** Dragnet: the annotators' full main text (headline, byline and captions included); else null. */
  mainContent: string | null;
  /** trafilatura-eval: snippets that must / must not appear (case-sensitive, whitespace collapsed). */
  withSnippets: string[];
  withoutSnippets: string[];
}

interface GroundTruthFile {
  url: string | null;
  source: NewsSource;
  ground_truth: { main_content?: string | null; with?: string[]; without?: string[] };
}

/** The news-dev dataset (`NEWS_DIR`, else `shared/data/news-dev` beside the repository). */
export function newsDatasetDir(repoRoot: string, override?: string): string | undefined {
  return datasetDir(repoRoot, 'news-dev', override);
}

/**
 * The Dragnet convention (the dataset README): the main text is what precedes the annotators'
 * `!@#$%^&*()  COMMENTS` marker. Three gold texts still carry the marker (one spelled `!@ $%^&*()`)
 * and the reader comments after it; they are cut there.
 */
const COMMENTS_MARKER = /^[!@#\s]*\$%\^&\*\(\)\s+COMMENTS\s*$/m;

function mainTextOf(text: string | null): string | null {
  if (text === null) return null;
  const marker = COMMENTS_MARKER.exec(text);
  return marker ? text.slice(0, marker.index).trimEnd() : text;
}

/** Every page, in file order (Dragnet 0001–0400, then trafilatura-eval 0401–0951). */
export function loadNewsPages(dir: string): NewsPage[] {
  const pages: NewsPage[] = [];
  for (const file of readdirSync(join(dir, 'ground-truth')).sort()) {
    if (!file.endsWith('.json')) continue;
    const id = file.slice(0, -'.json'.length);
    const truth = JSON.parse(readFileSync(join(dir, 'ground-truth', file), 'utf8')) as GroundTruthFile;
    pages.push({
      id,
      url: truth.url ?? undefined,
      source: truth.source,
      html: gunzipSync(readFileSync(join(dir, 'html', `${id}.html.gz`))),
      mainContent: mainTextOf(truth.ground_truth.main_content ?? null),
      withSnippets: truth.ground_truth.with ?? [],
      withoutSnippets: truth.ground_truth.without ?? [],
    });
  }
  return pages;
}

/** Collapses whitespace runs to one space, as the trafilatura evaluation compares snippets. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ');
}
