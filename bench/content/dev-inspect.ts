import { readFileSync } from 'node:fs';
import { loadWcxbPages } from '../../libs/scrape/content/src/quality/wcxb-dataset.util';
import { markdownToText } from '../../libs/scrape/content/src/quality/markdown-to-text.util';
import { wordTokens, wordF1 } from '../../libs/scrape/content/src/quality/word-f1.util';
const [id, dir = '/tmp/qdev/ours'] = process.argv.slice(2);
const page = loadWcxbPages('/work/shared/data/wcxb-dev').find((p) => p.id === id)!;
const md = readFileSync(`${dir}/${id}.md`, 'utf8');
const text = markdownToText(md);
console.log(page.url, page.pageType, wordF1(text, page.mainContent));
const ref = new Set(wordTokens(page.mainContent));
const refText = ' ' + wordTokens(page.mainContent).join(' ') + ' ';
console.log('--- EXTRA (lines of ours mostly not in GT)');
for (const line of text.split('\n')) {
  const t = wordTokens(line);
  if (t.length === 0) continue;
  const inRef = refText.includes(' ' + t.join(' ') + ' ');
  if (!inRef) console.log(`  [${t.filter((x) => ref.has(x)).length}/${t.length}] ${line.slice(0, 160)}`);
}
const ours = ' ' + wordTokens(text).join(' ') + ' ';
console.log('--- MISSING (GT lines not in ours)');
for (const line of page.mainContent.split('\n')) {
  const t = wordTokens(line);
  if (t.length === 0) continue;
  if (!ours.includes(' ' + t.join(' ') + ' ')) console.log(`  ${line.slice(0, 160)}`);
}
