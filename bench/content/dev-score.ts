import { readFileSync, existsSync } from 'node:fs';
import { loadWcxbPages, isHeldOut } from '../../libs/scrape/content/src/quality/wcxb-dataset.util';
import { scorePage, summarizeByType, PageScore } from '../../libs/scrape/content/src/quality/page-score.util';
const dirs = process.argv.slice(2);
const pages = loadWcxbPages('/work/shared/data/wcxb-dev');
const all: Record<string, PageScore[]> = {};
for (const d of dirs) {
  all[d] = pages.map((p) => scorePage(p, existsSync(`${d}/${p.id}.md`) ? readFileSync(`${d}/${p.id}.md`, 'utf8') : ''));
}
if (dirs.length === 2 && process.env.DIFF) {
  const [a, b] = dirs;
  const diffs = all[a].map((s, i) => ({ id: s.id, t: s.pageType, a: s.f1, b: all[b][i].f1, pb: all[b][i].precision, rb: all[b][i].recall, h: isHeldOut(i) })).filter((x) => !x.h);
  diffs.sort((x, y) => process.env.WORST ? x.b - y.b : (x.b - x.a) - (y.b - y.a));
  if (process.env.TYPE) diffs.splice(0, diffs.length, ...diffs.filter((d) => d.t === process.env.TYPE));
  for (const d of diffs.slice(0, Number(process.env.DIFF))) console.log(d.id, d.t.padEnd(13), d.a.toFixed(3), '->', d.b.toFixed(3), `P${d.pb.toFixed(2)} R${d.rb.toFixed(2)}`);
}
for (const [label, filter] of [['train', (i: number) => !isHeldOut(i)], ['holdout', isHeldOut], ['all', () => true]] as const) {
  console.log(`== ${label}`);
  const rows: Record<string, string[]> = {};
  for (const d of dirs) {
    const s = summarizeByType(all[d].filter((_, i) => filter(i)));
    for (const [t, v] of s) (rows[t] ??= []).push(`${v.f1.toFixed(3)} P${v.precision.toFixed(2)} R${v.recall.toFixed(2)} w${v.withRate.toFixed(2)} wo${v.withoutRate.toFixed(2)} (${v.pages})`);
  }
  for (const [t, r] of Object.entries(rows)) console.log(t.padEnd(14), r.join(' | '));
}
