import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { AppError, type PdfParseOptions } from '@quarry/contracts';

import type { DocumentToolkit } from '../document-toolkit';
import { type DocumentLayout, type ExtractedPage, layoutDocument, lineUp } from '../layout/document-layout';
import type { PageContent, PdfInfo } from '../model/page-content.types';
import { ocrToContent } from '../ocr/ocr-content';
import { runProcess } from '../process/run-process';
import { boundedDpi, type RenderedPage } from '../render/page-renderer';
import { WorkerCrashedError, WorkerTaskError, WorkerTimeoutError } from '../worker/parse-worker-pool';
import { PdfSession } from './pdf-session';
import { readPages } from './read-pages';
import { ocrReason } from './text-quality';

export interface ParseBudget {
  /** Epoch ms by which the result must be ready. */
  deadline: number;
  signal?: AbortSignal;
}

export interface PdfParseResult {
  layout: DocumentLayout;
  info: PdfInfo;
  /**
   * Pages parsed (status ok or partial), capped by maxPages: `metadata.numPages`, and the pages
   * billed. Failed pages (time budget, unreadable) are listed with status `failed` but not counted.
   */
  numPages: number;
  /** Pages in the file; undefined when it had to be repaired (the original count is unknown). */
  totalPages: number | undefined;
  /** Text source of each parsed page, in page order. */
  sources: string[];
  warnings: string[];
}

/** Time kept back at the end of the budget for layout, storage and the reply. */
const RESERVE_MS = 1_500;
/** Long side in pixels when a page's size is unknown (its text extraction failed). */
const FALLBACK_LONG_SIDE = 3_400;

type FailureReason =
  | 'time budget exhausted'
  | 'page timed out'
  | 'page could not be read'
  | 'no text layer (fast mode)'
  | 'OCR failed';

/**
 * Parses a PDF page by page in a worker thread: embedded text with layout (fast), OCR of rendered
 * pages (ocr), or text with OCR for the pages that have none or only garbage (auto). Pages that fail
 * or run out of time are reported with status `failed`; the document fails only when no page worked.
 */
export async function parsePdf(
  toolkit: DocumentToolkit,
  data: Uint8Array,
  options: PdfParseOptions,
  budget: ParseBudget,
): Promise<PdfParseResult> {
  try {
    return await parseOnce(toolkit, data, options, budget);
  } catch (error) {
    if (!(error instanceof UnreadablePdfError) || !toolkit.ghostscript) throw error;
    // A truncated or malformed file pdf.js cannot open: Ghostscript rewrites what it can read.
    const repaired = await repairPdf(
      toolkit.ghostscript,
      data,
      Math.min(toolkit.settings.openTimeoutMs, budget.deadline - Date.now()),
      budget.signal,
    ).catch(() => undefined);
    if (!repaired) throw error;
    const result = await parseOnce(toolkit, repaired, options, budget).catch(() => undefined);
    if (!result || !result.layout.markdown.trim()) throw error;
    return {
      ...result,
      totalPages: undefined,
      warnings: [
        `The PDF is damaged (${error.message.replace(/^The PDF could not be opened: /, '')}): ${result.numPages} page(s) were recovered by rewriting it; the page count of the original is unknown`,
        ...result.warnings,
      ],
    };
  }
}

async function parseOnce(
  toolkit: DocumentToolkit,
  data: Uint8Array,
  options: PdfParseOptions,
  budget: ParseBudget,
): Promise<PdfParseResult> {
  const { settings } = toolkit;
  const timeLeft = () => budget.deadline - RESERVE_MS - Date.now();
  const session = new PdfSession(
    toolkit.pool,
    data,
    Math.max(1_000, Math.min(settings.openTimeoutMs, timeLeft())),
    !toolkit.pdftoppm,
  );
  try {
    const info = await openOrExplain(session);
    const attempted = Math.min(info.totalPages, options.maxPages ?? info.totalPages);
    const pages = new Map<number, ExtractedPage>();
    const native = new Map<number, PageContent>();
    const failures = new Map<number, FailureReason>();
    const ocrQueue: number[] = [];
    const fail = (pageNumber: number, reason: FailureReason, content?: PageContent) => {
      failures.set(pageNumber, reason);
      pages.set(pageNumber, {
        pageNumber,
        source: 'native_text',
        status: 'failed',
        renderSize: content ? { width: content.width, height: content.height } : null,
      });
    };

    // Fast mode reads the text layer only; auto and ocr also place images (figures, scans), rulings and bold fonts.
    const graphics = options.mode !== 'fast';
    const accept = (content: PageContent) => {
      const { pageNumber } = content;
      native.set(pageNumber, content);
      const reason = ocrReason(content);
      if (options.mode === 'ocr' || (options.mode === 'auto' && reason)) {
        ocrQueue.push(pageNumber);
        return;
      }
      if (options.mode === 'fast' && (reason === 'no_text' || reason === 'scanned')) {
        fail(pageNumber, 'no text layer (fast mode)', content);
        return;
      }
      const status = content.truncated || reason === 'garbage_text' ? 'partial' : 'ok';
      pages.set(pageNumber, {
        pageNumber,
        content,
        source: 'native_text',
        status,
        renderSize: { width: content.width, height: content.height },
        // Lines are built as the pages arrive, while the parse process reads the next ones.
        lined: lineUp(content),
      });
    };
    const unread = (pageNumber: number, timedOut: boolean) => {
      if (options.mode === 'ocr') ocrQueue.push(pageNumber);
      // A page cut short because the document's budget ran out is not the page's fault.
      else if (timeLeft() <= 50) fail(pageNumber, 'time budget exhausted');
      else fail(pageNumber, timedOut ? 'page timed out' : 'page could not be read');
    };

    const unreadPages = await readPages(
      session,
      { count: attempted, graphics, pageTimeoutMs: settings.pageTimeoutMs, timeLeft, signal: budget.signal },
      { read: accept, unread },
    );
    for (const pageNumber of unreadPages) fail(pageNumber, 'time budget exhausted');

    if (
      options.mode === 'fast' &&
      attempted > 0 &&
      [...failures.values()].filter((reason) => reason === 'no text layer (fast mode)').length === attempted
    ) {
      throw new AppError('SCRAPE_PDF_OCR_REQUIRED');
    }

    await forEachConcurrent(ocrQueue, settings.ocrConcurrency, async (pageNumber) => {
      const fallback = native.get(pageNumber);
      const keepNative = () => {
        if (fallback && fallback.items.length > 0) {
          failures.set(pageNumber, 'OCR failed');
          pages.set(pageNumber, {
            pageNumber,
            content: fallback,
            source: 'native_text',
            status: 'partial',
            renderSize: { width: fallback.width, height: fallback.height },
          });
        } else fail(pageNumber, timeLeft() <= 0 ? 'time budget exhausted' : 'OCR failed', fallback);
      };
      const pageBudget = Math.min(settings.pageTimeoutMs, timeLeft());
      if (pageBudget < 500 || budget.signal?.aborted) return keepNative();
      const started = Date.now();
      try {
        const rendered = await render(toolkit, session, pageNumber, fallback, pageBudget, budget.signal);
        const remaining = pageBudget - (Date.now() - started);
        if (remaining < 250) throw new Error('no time left for OCR');
        const result = await toolkit.ocr.recognize(rendered.png, {
          timeoutMs: remaining,
          dpi: rendered.dpi,
          signal: budget.signal,
        });
        const pointSize = fallback ? { width: fallback.width, height: fallback.height } : undefined;
        const content = ocrToContent(result, pageNumber, pointSize);
        pages.set(pageNumber, {
          pageNumber,
          content,
          source: 'layout_ocr',
          status: 'ok',
          renderSize: { width: rendered.width, height: rendered.height },
        });
      } catch {
        keepNative();
      }
    });

    const ordered = Array.from(
      { length: attempted },
      (_, index) =>
        pages.get(index + 1) ?? {
          pageNumber: index + 1,
          source: 'native_text' as const,
          status: 'failed' as const,
          renderSize: null,
        },
    );
    const parsedPages = ordered.filter((page) => page.status !== 'failed').length;
    if (attempted > 0 && parsedPages === 0) {
      if (
        [...failures.values()].some(
          (reason) => reason === 'time budget exhausted' || reason === 'page timed out',
        )
      )
        throw new AppError('SCRAPE_PDF_INSUFFICIENT_TIME_ERROR');
      throw new AppError('DOCUMENT_INVALID', {
        message: 'No page of the PDF could be parsed: the file is damaged or not a PDF',
      });
    }
    const layout = layoutDocument(ordered, { pageMarkers: options.pageMarkers, blocks: options.blocks });
    return {
      layout,
      info,
      numPages: parsedPages,
      totalPages: info.totalPages,
      sources: ordered.map((page) => page.source),
      warnings: describeFailures(failures),
    };
  } finally {
    await session.close();
  }
}

/** pdf.js could not open the file at all (no usable cross-reference table or catalogue). */
class UnreadablePdfError extends AppError {
  constructor(message: string) {
    super('DOCUMENT_INVALID', { message });
  }
}

/** Ghostscript's `pdfwrite` of a damaged PDF: a well-formed file with the pages it could read. */
async function repairPdf(
  ghostscript: string,
  data: Uint8Array,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Uint8Array | undefined> {
  if (timeoutMs < 1_000) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'quarry-repair-'));
  try {
    await writeFile(join(dir, 'in.pdf'), data);
    await runProcess(
      ghostscript,
      [
        '-q',
        '-dNOPAUSE',
        '-dBATCH',
        '-dSAFER',
        '-sDEVICE=pdfwrite',
        '-o',
        join(dir, 'out.pdf'),
        join(dir, 'in.pdf'),
      ],
      {
        timeoutMs,
        maxOutputBytes: 1_000_000,
        signal,
      },
    );
    const repaired = await readFile(join(dir, 'out.pdf'));
    return repaired.length > 0 ? new Uint8Array(repaired) : undefined;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function openOrExplain(session: PdfSession): Promise<PdfInfo> {
  try {
    return await session.open();
  } catch (error) {
    if (error instanceof WorkerTaskError && error.reason === 'encrypted')
      throw new AppError('DOCUMENT_ENCRYPTED', {
        message: 'The PDF is encrypted with a password and cannot be parsed',
      });
    if (error instanceof WorkerTaskError && error.reason === 'invalid')
      throw new UnreadablePdfError(error.message);
    if (error instanceof WorkerCrashedError && error.outOfMemory)
      throw new AppError('DOCUMENT_INVALID', {
        message: 'The PDF needs more memory to open than a parse worker may use',
      });
    if (error instanceof WorkerTimeoutError)
      throw new AppError('DOCUMENT_INVALID', {
        message: 'The PDF could not be opened within its time budget',
      });
    throw error;
  }
}

async function render(
  toolkit: DocumentToolkit,
  session: PdfSession,
  pageNumber: number,
  native: PageContent | undefined,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<RenderedPage> {
  const { settings } = toolkit;
  const size = native ? { width: native.width, height: native.height } : undefined;
  const dpi = boundedDpi(settings.ocrDpi, size, settings.maxRenderPixels);
  if (toolkit.pdftoppm)
    return toolkit.pdftoppm.render(
      await session.file(),
      pageNumber,
      size ? { dpi } : { dpi, scaleTo: FALLBACK_LONG_SIDE },
      timeoutMs,
      signal,
    );
  return session.render(pageNumber, dpi, timeoutMs);
}

function describeFailures(failures: Map<number, FailureReason>): string[] {
  const byReason = new Map<FailureReason, number[]>();
  for (const [page, reason] of [...failures.entries()].sort((a, b) => a[0] - b[0]))
    byReason.set(reason, [...(byReason.get(reason) ?? []), page]);
  return [...byReason.entries()].map(([reason, list]) => {
    const shown =
      list.length > 20 ? `${list.slice(0, 20).join(', ')} and ${list.length - 20} more` : list.join(', ');
    const plural = list.length > 1;
    const what =
      reason === 'OCR failed'
        ? `fell back to ${plural ? 'their' : 'its'} embedded text`
        : `${plural ? 'were' : 'was'} not parsed`;
    return `Page${plural ? 's' : ''} ${shown} ${what} (${reason})`;
  });
}

async function forEachConcurrent<T>(
  items: readonly T[],
  concurrency: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
    while (next < items.length) {
      const item = items[next++];
      await task(item);
    }
  });
  await Promise.all(runners);
}
