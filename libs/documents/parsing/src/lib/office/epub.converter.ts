import { posix } from 'node:path';

import { htmlOutput } from './html-output';
import type { OfficeConvertOptions, OfficeOutput } from './office-output.types';
import { findAll, findFirst, parseXml, textOf } from './xml.util';
import { DocumentFormatError, openZip, readEntry } from './zip.util';

const MAX_CHAPTERS = 2_000;

/**
 * EPUB 2/3: the package's spine gives the reading order of its XHTML chapters, which go through
 * the HTML pipeline one by one (jszip + our own OPF reading; no maintained converter needed).
 */
export async function convertEpub(
  data: Buffer,
  filename: string,
  options: OfficeConvertOptions,
): Promise<OfficeOutput> {
  const zip = await openZip(data);
  const container = await readEntry(zip, 'META-INF/container.xml');
  const rootfile = container ? findFirst(parseXml(container), 'rootfile')?.attrs['full-path'] : undefined;
  const opfXml = rootfile ? await readEntry(zip, rootfile) : undefined;
  if (!rootfile || !opfXml)
    throw new DocumentFormatError(
      'The file is not an EPUB (META-INF/container.xml or its package document is missing)',
    );
  const opf = parseXml(opfXml);
  const base = posix.dirname(rootfile);
  const manifest = new Map(
    findAll(opf, 'item')
      .concat(findAll(opf, 'opf:item'))
      .map((item) => [
        item.attrs['id'] ?? '',
        { href: item.attrs['href'] ?? '', type: item.attrs['media-type'] ?? '' },
      ]),
  );
  const spine = findAll(opf, 'itemref').concat(findAll(opf, 'opf:itemref')).slice(0, MAX_CHAPTERS);
  const chapters: string[] = [];
  for (const itemref of spine) {
    const item = manifest.get(itemref.attrs['idref'] ?? '');
    if (!item || !/html/i.test(item.type)) continue;
    const xhtml = await readEntry(zip, posix.normalize(posix.join(base, decodeURIComponent(item.href))));
    if (!xhtml) continue;
    const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(xhtml);
    chapters.push(`<section>${body ? body[1] : xhtml}</section>`);
  }
  const read = (name: string) => {
    const node = findFirst(opf, name);
    return node ? textOf(node).trim() || undefined : undefined;
  };
  const metadata = Object.fromEntries(
    Object.entries({
      title: read('dc:title'),
      author: read('dc:creator'),
      language: read('dc:language'),
      description: read('dc:description'),
    }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return htmlOutput(`<html><body>${chapters.join('\n')}</body></html>`, filename, options, true, metadata);
}
