import type { PDFDocumentProxy } from 'pdfjs-dist';

import { type ProgressSender, serveWorker, setWorkerMark, workerData } from '@quarry/platform/workers';

import { convertOffice } from '../office/convert-office';
import { type PackedPages, packPages, type PageOutcome } from '../pdf/page-content.codec';
import { extractPage, loadPdfjs, openPdf, pdfInfo, renderPage } from '../pdf/pdf-extract';
import { plainClone } from './plain-clone';
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
// pdf.js's in-process worker passes every message through structuredClone, a MessageChannel per call
// on Node 20; its messages are plain data, which plainClone copies in JavaScript (7 % of this
// process's CPU on a 200-page report went to cloning text chunks).
globalThis.structuredClone = plainClone(globalThis.structuredClone);
let current: PDFDocumentProxy | undefined;
/** The `pdf.pages` call running on the open document, and whether it was asked to stop. */
let reading: { done: Promise<unknown>; stop: boolean } | undefined;

async function handle(request: WorkerCall, progress: ProgressSender): Promise<unknown> {
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
    case 'pdf.pages': {
      if (reading) throw new Error('pages are already being read');
      const state = { done: Promise.resolve<unknown>(undefined), stop: false };
      reading = state;
      state.done = readPages(requireOpen(), request, progress, state);
      try {
        return await state.done;
      } finally {
        reading = undefined;
      }
    }
    case 'pdf.stop':
      if (reading) reading.stop = true;
      return null;
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

/**
 * Reads pages in order and sends them in batches: one message per page cost both processes more than
 * the smaller pages themselves. Stops before a page at `stopAt`, on `pdf.stop`, or when the document
 * is closed. A page pdf.js cannot read is reported as such and the next one is read.
 */
async function readPages(
  document: PDFDocumentProxy,
  request: Extract<WorkerCall, { op: 'pdf.pages' }>,
  progress: ProgressSender,
  state: { stop: boolean },
): Promise<PackedPages> {
  let batch: PageOutcome[] = [];
  let flushedAt = Date.now();
  const skip = new Set(request.skip);
  setWorkerMark(request.from - 1);
  for (let pageNumber = request.from; pageNumber <= request.to; pageNumber += 1) {
    if (skip.has(pageNumber)) continue;
    if (state.stop || current !== document || Date.now() >= request.stopAt) break;
    // Pages held for the next batch die with the process: the mark says which page killed it.
    setWorkerMark(pageNumber);
    try {
      batch.push(
        await extractPage(document, pageNumber, {
          maxItems: settings.maxItemsPerPage,
          maxOperators: settings.maxOperatorsPerPage,
          graphics: request.graphics,
        }),
      );
    } catch (error) {
      batch.push({ pageNumber, error: error instanceof Error ? error.message : String(error) });
    }
    if (pageNumber < request.to && Date.now() - flushedAt >= request.flushMs) {
      progress(packPages(batch));
      batch = [];
      // pdf.js works in microtasks: this lets a waiting `pdf.stop` or `pdf.close` in.
      await new Promise((resolve) => setImmediate(resolve));
      flushedAt = Date.now();
    }
  }
  return packPages(batch);
}

function requireOpen(): PDFDocumentProxy {
  if (!current) throw new Error('no PDF is open in this worker');
  return current;
}

async function closeCurrent(): Promise<void> {
  const document = current;
  current = undefined;
  // A page being read finishes before its document goes away.
  await reading?.done.catch(() => undefined);
  await document?.destroy().catch(() => undefined);
}

serveWorker<WorkerCall>(handle);
