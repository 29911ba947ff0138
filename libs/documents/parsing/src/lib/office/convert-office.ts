import type { DocumentKind } from '@quarry/contracts';
import { decodeBody } from '@quarry/scrape/content';

import { convertCsv } from './csv.converter';
import { convertDocx } from './docx.converter';
import { convertEpub } from './epub.converter';
import { htmlOutput } from './html-output';
import { convertOdf } from './odf.converter';
import type { DocumentLimits, OfficeConvertOptions, OfficeOutput } from './office-output.types';
import { convertPptx } from './pptx.converter';
import { convertRtf } from './rtf.converter';
import { convertXlsx } from './xlsx.converter';
import { checkArchiveSize, DocumentFormatError, DocumentTooLargeError, openZip } from './zip.util';

/** Kinds that are ZIP archives: every entry is inflated under the limits before a converter reads any. */
const ZIP_KINDS = new Set<DocumentKind>(['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub']);

/** Converts a non-PDF document to markdown (runs inside a parse worker thread), within `limits`. */
export async function convertOffice(
  kind: DocumentKind,
  data: Buffer,
  filename: string,
  options: OfficeConvertOptions,
  limits: DocumentLimits,
): Promise<OfficeOutput> {
  if (ZIP_KINDS.has(kind)) await checkArchiveSize(await openZip(data), limits);
  const output = await convert(kind, data, filename, options);
  const size = [output.markdown, output.html, output.rawHtml].reduce(
    (sum, text) => sum + (text ? Buffer.byteLength(text) : 0),
    0,
  );
  if (size > limits.maxOutputBytes)
    throw new DocumentTooLargeError(
      `The converted document (${size} bytes of markdown/HTML) exceeds DOC_MAX_OUTPUT_BYTES (${limits.maxOutputBytes} bytes)`,
    );
  return output;
}

function convert(
  kind: DocumentKind,
  data: Buffer,
  filename: string,
  options: OfficeConvertOptions,
): Promise<OfficeOutput> | OfficeOutput {
  switch (kind) {
    case 'html':
      return htmlOutput(decodeBody(data, 'text/html').text, filename, options, false);
    case 'docx':
      return convertDocx(data, filename, options);
    case 'odt':
    case 'ods':
    case 'odp':
      return convertOdf(kind, data, filename, options);
    case 'rtf':
      return convertRtf(data, filename, options);
    case 'xlsx':
      return convertXlsx(data, filename, options);
    case 'pptx':
      return convertPptx(data, filename, options);
    case 'epub':
      return convertEpub(data, filename, options);
    case 'csv':
      return convertCsv(data, filename, options);
    default:
      throw new DocumentFormatError(`${kind} documents are not converted in a parse worker`);
  }
}
