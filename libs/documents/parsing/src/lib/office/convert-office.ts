import type { DocumentKind } from '@quarry/contracts';
import { decodeBody } from '@quarry/scrape/content';
import { convertCsv } from './csv.converter';
import { convertDocx } from './docx.converter';
import { convertEpub } from './epub.converter';
import { htmlOutput } from './html-output';
import { convertOdf } from './odf.converter';
import type { OfficeConvertOptions, OfficeOutput } from './office-output.types';
import { convertPptx } from './pptx.converter';
import { convertRtf } from './rtf.converter';
import { convertXlsx } from './xlsx.converter';
import { DocumentFormatError } from './zip.util';

/** Converts a non-PDF document to markdown (runs inside a parse worker thread). */
export async function convertOffice(
  kind: DocumentKind,
  data: Buffer,
  filename: string,
  options: OfficeConvertOptions,
): Promise<OfficeOutput> {
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
