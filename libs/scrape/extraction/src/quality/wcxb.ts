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

/** The WCXB development subset (../shared/data/wcxb-dev, or WCXB_DIR). */
export function wcxbDir(override?: string): string | undefined {
  const candidates = [
    override,
    '/work/shared/data/wcxb-dev',
    join(__dirname, '../../../../../../shared/data/wcxb-dev'),
  ];
  return candidates.find((dir): dir is string => !!dir && existsSync(join(dir, 'ground-truth')));
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
