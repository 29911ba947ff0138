import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export interface WcxbRecord {
  id: string;
  url: string;
  pageType: string;
  html: Buffer;
  title: string | null;
  author: string | null;
  publishDate: string | null;
  mainContent: string;
}

/**
 * The WCXB development subset: `override` (WCXB_DIR, e.g. for a git worktree that sits elsewhere), else
 * the copy beside the repository (`../shared/data/wcxb-dev`). Throws when neither holds it: a quality
 * suite without its data fails instead of passing without having measured anything.
 */
export function wcxbDir(override?: string): string {
  const dir = override || join(__dirname, '../../../../../../shared/data/wcxb-dev');
  if (!existsSync(join(dir, 'ground-truth')))
    throw new Error(
      `WCXB dataset not found at ${dir}: set WCXB_DIR to the wcxb-dev folder (with ground-truth/ and html/)`,
    );
  return dir;
}

export function loadWcxb(dir: string): WcxbRecord[] {
  const out: WcxbRecord[] = [];
  for (const file of readdirSync(join(dir, 'ground-truth')).sort()) {
    if (!file.endsWith('.json')) continue;
    const id = file.slice(0, -5);
    const truth = JSON.parse(readFileSync(join(dir, 'ground-truth', file), 'utf8')) as {
      url: string;
      _internal?: { page_type?: { primary?: string } };
      ground_truth: {
        title?: string | null;
        author?: string | null;
        publish_date?: string | null;
        main_content?: string;
      };
    };
    const htmlPath = join(dir, 'html', `${id}.html.gz`);
    if (!existsSync(htmlPath)) continue;
    out.push({
      id,
      url: truth.url,
      pageType: truth._internal?.page_type?.primary ?? 'unknown',
      html: gunzipSync(readFileSync(htmlPath)),
      title: truth.ground_truth.title ?? null,
      author: truth.ground_truth.author ?? null,
      publishDate: truth.ground_truth.publish_date ?? null,
      mainContent: truth.ground_truth.main_content ?? '',
    });
  }
  return out;
}
