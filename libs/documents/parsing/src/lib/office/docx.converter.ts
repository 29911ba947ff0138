import mammoth from 'mammoth';

import { htmlOutput } from './html-output';
import type { OfficeConvertOptions, OfficeOutput } from './office-output.types';
import { findFirst, parseXml, textOf } from './xml.util';
import { DocumentFormatError, openZip, readEntry } from './zip.util';

/**
 * Word (.docx, .docm) through mammoth (maintained, pure JS, maps Word styles to semantic HTML:
 * headings, lists, tables, emphasis), then the shared HTML → markdown pipeline.
 */
export async function convertDocx(
  data: Buffer,
  filename: string,
  options: OfficeConvertOptions,
): Promise<OfficeOutput> {
  const zip = await openZip(data);
  if (!zip.file('word/document.xml'))
    throw new DocumentFormatError('The file is not a Word document (word/document.xml is missing)');
  const { value } = await mammoth.convertToHtml({ buffer: data }, { ignoreEmptyParagraphs: true });
  const metadata = coreProperties(await readEntry(zip, 'docProps/core.xml'));
  return htmlOutput(
    `<html><head>${metadata['title'] ? `<title>${metadata['title']}</title>` : ''}</head><body>${value}</body></html>`,
    filename,
    options,
    true,
    metadata,
  );
}

/** Title, author, subject, keywords and language from an OOXML `docProps/core.xml`. */
export function coreProperties(xml: string | undefined): Record<string, string> {
  if (!xml) return {};
  const nodes = parseXml(xml);
  const read = (name: string) => {
    const node = findFirst(nodes, name);
    const text = node ? textOf(node).trim() : '';
    return text || undefined;
  };
  const entries = {
    title: read('dc:title'),
    author: read('dc:creator'),
    description: read('dc:description') ?? read('dc:subject'),
    keywords: read('cp:keywords'),
    language: read('dc:language'),
  };
  return Object.fromEntries(
    Object.entries(entries).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
