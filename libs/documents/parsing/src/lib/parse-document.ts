import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import {
  AppError,
  type DocumentKind,
  type ParsedDocumentOutput,
  type PdfParseOptions,
} from '@quarry/contracts';

import type { DocumentToolkit } from './document-toolkit';
import { layoutDocument } from './layout/document-layout';
import { OcrDisabledError } from './ocr/disabled-ocr.engine';
import { ocrToContent } from './ocr/ocr-content';
import type { OfficeConvertOptions, OfficeOutput } from './office/office-output.types';
import { type ParseBudget, parsePdf } from './pdf/pdf-document.parser';
import { runProcess } from './process/run-process';
import { WorkerCrashedError, WorkerTaskError, WorkerTimeoutError } from './worker/parse-worker-pool';

export interface DocumentParseRequest {
  kind: DocumentKind;
  data: Buffer;
  filename: string;
  pdf: PdfParseOptions;
  content: OfficeConvertOptions;
  budget: ParseBudget;
}

const LEGACY_TARGETS: Partial<Record<DocumentKind, { extension: string; kind: DocumentKind }>> = {
  doc: { extension: 'docx', kind: 'docx' },
  xls: { extension: 'xlsx', kind: 'xlsx' },
  xlsb: { extension: 'xlsx', kind: 'xlsx' },
  ppt: { extension: 'pptx', kind: 'pptx' },
};

/** Parses any supported document into markdown (and pages/blocks for PDFs). Throws AppError on failure. */
export async function parseDocument(
  toolkit: DocumentToolkit,
  request: DocumentParseRequest,
): Promise<ParsedDocumentOutput> {
  switch (request.kind) {
    case 'pdf':
      return parsePdfDocument(toolkit, request);
    case 'image':
      return parseImage(toolkit, request);
    case 'doc':
    case 'xls':
    case 'xlsb':
    case 'ppt':
      return parseLegacy(toolkit, request);
    default:
      return officeOutput(await convertInWorker(toolkit, request));
  }
}

async function parsePdfDocument(
  toolkit: DocumentToolkit,
  request: DocumentParseRequest,
): Promise<ParsedDocumentOutput> {
  const result = await parsePdf(
    toolkit,
    new Uint8Array(request.data.buffer, request.data.byteOffset, request.data.byteLength),
    request.pdf,
    request.budget,
  );
  const { info, layout } = result;
  const metadata: ParsedDocumentOutput['metadata'] = {};
  const title = info.title ?? layout.title;
  if (title) metadata['title'] = title;
  if (info.author) metadata['author'] = info.author;
  if (info.subject) metadata['description'] = info.subject;
  if (info.keywords) metadata['keywords'] = info.keywords;
  if (info.language) metadata['language'] = info.language;
  if (info.creator) metadata['creator'] = info.creator;
  if (info.producer) metadata['producer'] = info.producer;
  if (info.creationDate) metadata['publishedTime'] = info.creationDate;
  if (info.modificationDate) metadata['modifiedTime'] = info.modificationDate;
  metadata['numPages'] = result.numPages;
  if (result.totalPages !== undefined) metadata['totalPages'] = result.totalPages;
  return {
    markdown: layout.markdown,
    ...(request.pdf.pages ? { pages: layout.pages } : {}),
    ...(request.pdf.blocks ? { blocks: layout.blocks } : {}),
    metadata,
    // numPages and the billed pages are the same count: failed pages cost nothing (docs/scraping.md#credits).
    pdfPages: result.numPages,
    pageSummary: layout.blocks.map((page) => ({
      source: result.sources[page.pageNumber - 1] ?? 'native_text',
      status: page.status,
    })),
    ...(result.warnings.length ? { warning: result.warnings.join('; ') } : {}),
  };
}

async function parseImage(
  toolkit: DocumentToolkit,
  request: DocumentParseRequest,
): Promise<ParsedDocumentOutput> {
  const timeoutMs = Math.min(toolkit.settings.pageTimeoutMs, request.budget.deadline - Date.now());
  if (timeoutMs < 500) throw new AppError('SCRAPE_PDF_INSUFFICIENT_TIME_ERROR');
  let result;
  try {
    result = await toolkit.ocr.recognize(request.data, { timeoutMs, signal: request.budget.signal });
  } catch (error) {
    if ((error as Error)?.name === 'OcrTimeoutError')
      throw new AppError('SCRAPE_PDF_INSUFFICIENT_TIME_ERROR', {
        message: 'OCR of the image did not finish within its time budget',
      });
    if (error instanceof OcrDisabledError)
      throw new AppError('PARSE_UNSUPPORTED_FILE_TYPE', {
        message: 'Images are parsed by OCR, which is turned off on this deployment (OCR_ENGINE=off)',
      });
    throw new AppError('DOCUMENT_INVALID', {
      message: 'The image could not be read (unsupported or damaged image file)',
    });
  }
  const content = ocrToContent(result, 1);
  const layout = layoutDocument(
    [
      {
        pageNumber: 1,
        content,
        source: 'layout_ocr',
        status: 'ok',
        renderSize: { width: result.width, height: result.height },
      },
    ],
    { pageMarkers: false },
  );
  return { markdown: layout.markdown, metadata: layout.title ? { title: layout.title } : {} };
}

async function convertInWorker(
  toolkit: DocumentToolkit,
  request: DocumentParseRequest,
): Promise<OfficeOutput> {
  const timeoutMs = Math.min(toolkit.settings.openTimeoutMs, request.budget.deadline - Date.now());
  if (timeoutMs < 500)
    throw new AppError('SCRAPE_PDF_INSUFFICIENT_TIME_ERROR', {
      message: 'No time was left to convert the document',
    });
  const worker = await toolkit.pool.acquire();
  try {
    const data = new Uint8Array(request.data.buffer, request.data.byteOffset, request.data.byteLength);
    return await worker.call<OfficeOutput>(
      {
        op: 'office.convert',
        kind: request.kind,
        data,
        filename: request.filename,
        options: request.content,
        limits: toolkit.settings.limits,
      },
      timeoutMs,
    );
  } catch (error) {
    if (error instanceof WorkerTaskError && error.reason === 'too_large')
      throw new AppError('DOCUMENT_TOO_LARGE', { message: error.message });
    if (error instanceof WorkerTaskError)
      throw new AppError('DOCUMENT_INVALID', {
        message: `The ${request.kind.toUpperCase()} file could not be converted: ${error.message}`,
      });
    if (error instanceof WorkerTimeoutError)
      throw new AppError('DOCUMENT_INVALID', {
        message: `The ${request.kind.toUpperCase()} file could not be converted within its time budget`,
      });
    if (error instanceof WorkerCrashedError) {
      throw new AppError('DOCUMENT_INVALID', {
        message: error.outOfMemory
          ? 'The document needs more memory than a parse worker may use'
          : 'The document crashed its parse worker',
      });
    }
    throw error;
  } finally {
    toolkit.pool.release(worker);
  }
}

function officeOutput(output: OfficeOutput): ParsedDocumentOutput {
  return {
    markdown: output.markdown,
    ...(output.html !== undefined ? { html: output.html } : {}),
    ...(output.rawHtml !== undefined ? { rawHtml: output.rawHtml } : {}),
    ...(output.links !== undefined ? { links: output.links } : {}),
    ...(output.images !== undefined ? { images: output.images } : {}),
    metadata: output.metadata,
  };
}

/** Legacy binary Office files, converted to their OOXML successor by LibreOffice when it is installed. */
async function parseLegacy(
  toolkit: DocumentToolkit,
  request: DocumentParseRequest,
): Promise<ParsedDocumentOutput> {
  const target = LEGACY_TARGETS[request.kind];
  if (!toolkit.soffice || !target) {
    throw new AppError('PARSE_UNSUPPORTED_FILE_TYPE', {
      message: `Legacy .${request.kind} files need LibreOffice, which this deployment does not have; save the file as .${target?.extension ?? 'docx'} and retry`,
    });
  }
  const timeoutMs = Math.min(toolkit.settings.openTimeoutMs, request.budget.deadline - Date.now());
  const dir = await mkdtemp(join(tmpdir(), 'quarry-legacy-'));
  try {
    const input = join(dir, `input.${request.kind}`);
    await writeFile(input, request.data);
    const profile = pathToFileURL(join(dir, `profile-${randomUUID()}`)).href;
    await runProcess(
      toolkit.soffice,
      [
        `-env:UserInstallation=${profile}`,
        '--headless',
        '--norestore',
        '--convert-to',
        target.extension,
        '--outdir',
        join(dir, 'out'),
        input,
      ],
      {
        timeoutMs,
        maxOutputBytes: 1_000_000,
        signal: request.budget.signal,
      },
    ).catch(() => {
      throw new AppError('DOCUMENT_INVALID', {
        message: `The .${request.kind} file could not be converted by LibreOffice`,
      });
    });
    const produced = (await readdir(join(dir, 'out')).catch(() => [] as string[])).find((name) =>
      name.endsWith(`.${target.extension}`),
    );
    if (!produced)
      throw new AppError('DOCUMENT_INVALID', {
        message: `The .${request.kind} file could not be converted by LibreOffice`,
      });
    const data = await readFile(join(dir, 'out', produced));
    return parseDocument(toolkit, { ...request, kind: target.kind, data });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
