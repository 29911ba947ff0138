import { writeFileSync } from 'node:fs';
import { decodeBody } from '../../libs/scrape/content/src/decode/decode-body.util';
import { loadWcxbPages } from '../../libs/scrape/content/src/quality/wcxb-dataset.util';
import { jsdomReadability, linkedomReadability } from './baselines';
const pages = loadWcxbPages('/work/shared/data/wcxb-dev');
const t0 = Date.now();
for (const p of pages) {
  const html = decodeBody(p.html).text;
  writeFileSync(`/tmp/qdev/base_jsdom/${p.id}.md`, jsdomReadability(html, p.url));
  let l = '';
  try { l = linkedomReadability(html); } catch (e) { l = ''; console.log('linkedom fail', p.id, (e as Error).message); }
  writeFileSync(`/tmp/qdev/base_linkedom/${p.id}.md`, l);
}
console.log(pages.length, Date.now() - t0);
