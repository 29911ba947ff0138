import { decodeBody } from '../../libs/scrape/content/src/decode/decode-body.util';
import { loadWcxbPages } from '../../libs/scrape/content/src/quality/wcxb-dataset.util';
import { parseDocument } from '../../libs/scrape/content/src/dom/parse-document.util';
import { stripNonContent } from '../../libs/scrape/content/src/clean/strip-non-content.util';
const page = loadWcxbPages('/work/shared/data/wcxb-dev').find((p) => p.id === process.argv[2])!;
const body = parseDocument(decodeBody(page.html).text).body!;
stripNonContent(body);
for (const el of Array.from(body.querySelectorAll('button,select,input,textarea,label,form,[role]'))) {
  const n = (el.textContent ?? '').replace(/\s+/g, '').length;
  if (n > 200) console.log(el.tagName, el.getAttribute('role'), el.getAttribute('class')?.slice(0, 60), n);
}
