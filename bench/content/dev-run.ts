import { mkdirSync, writeFileSync } from 'node:fs';
import { decodeBody } from '../../libs/scrape/content/src/decode/decode-body.util';
import { loadWcxbPages } from '../../libs/scrape/content/src/quality/wcxb-dataset.util';
import { transformDocument } from '../../libs/scrape/content/src/transform/transform-document.util';
const out = process.argv[2] ?? '/tmp/qdev/ours';
mkdirSync(out, { recursive: true });
const only = process.env.ONLY?.split(',');
const pages = loadWcxbPages('/work/shared/data/wcxb-dev').filter((p) => !only || only.includes(p.id));
const t0 = Date.now();
for (const p of pages) {
  const r = transformDocument({ body: decodeBody(p.html).text, url: p.url }, ['markdown'], { onlyMainContent: true, removeBase64Images: true });
  writeFileSync(`${out}/${p.id}.md`, r.markdown ?? '');
}
console.log('pages', pages.length, 'ms', Date.now() - t0);
