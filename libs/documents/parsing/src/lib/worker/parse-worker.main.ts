import type { PDFDocumentProxy } from 'pdfjs-dist';

import { serveWorker, workerData } from '@quarry/platform/workers';

import { convertOffice } from '../office/convert-office';
import { packPageContent } from '../pdf/page-content.codec';
import { extractPage, loadPdfjs, openPdf, pdfInfo, renderPage } from '../pdf/pdf-extract';
import type { WorkerCall, WorkerSettings } from './worker-protocol';

/**
 * Entry of a parse worker process: everything that reads untrusted document bytes runs here, so a
 * hostile file can exhaust only this process's memory (heap limit, resident-memory watchdog) or time
 * (the pool kills it), never the service that owns the pool.
 */
const { settings } = workerData<{ settings: WorkerSettings }>();

// pdf.js inflates every Flate stream through the WHATWG DecompressionStream when the runtime has
// one; in Node that is the web-streams adapter over zlib, whose per-stream set-up costs more than
// pdf.js's own inflate on the small content streams of a page (measured on a 200-page report:
// 20–25 % less CPU per page without it). This process only parses documents, so it does without.
delete (globalThis as { DecompressionStream?: unknown }).DecompressionStream;
let current: PDFDocumentProxy | undefined;

async function handle(request: WorkerCall): Promise<unknown> {
  switch (request.op) {
    case 'ping':
      await loadPdfjs();
      return 'pong';
    case 'pdf.open': {
      await closeCurrent();
      current = await openPdf(request.data, {
        password: request.password,
        standardFonts: request.standardFonts,
        maxImagePixels: settings.maxImagePixels,
      });
      return pdfInfo(current);
    }
    case 'pdf.page':
      return packPageContent(
        await extractPage(requireOpen(), request.pageNumber, {
          maxItems: settings.maxItemsPerPage,
          maxOperators: settings.maxOperatorsPerPage,
          graphics: request.graphics,
        }),
      );
    case 'pdf.render':
      return renderPage(requireOpen(), request.pageNumber, request.dpi, settings.maxRenderPixels);
    case 'pdf.close':
      await closeCurrent();
      return null;
    case 'office.convert':
      return convertOffice(
        request.kind,
        Buffer.from(request.data.buffer, request.data.byteOffset, request.data.byteLength),
        request.filename,
        request.options,
        request.limits,
      );
  }
}

function requireOpen(): PDFDocumentProxy {
  if (!current) throw new Error('no PDF is open in this worker');
  return current;
}

async function closeCurrent(): Promise<void> {
  const document = current;
  current = undefined;
  await document?.destroy().catch(() => undefined);
}

serveWorker<WorkerCall>(handle);
