import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { ProgressHandler } from '@quarry/platform/workers';

import type { PdfInfo } from '../model/page-content.types';
import type { RenderedPage } from '../render/page-renderer';
import { pngSize } from '../render/page-renderer';
import {
  type ParseWorker,
  type ParseWorkerPool,
  type WorkerCall,
  WorkerCrashedError,
  WorkerTimeoutError,
} from '../worker/parse-worker-pool';
import { type PackedPages, type PageOutcome, unpackPages } from './page-content.codec';

/** Threads replaced for one document before its remaining pages are given up. */
const MAX_RECOVERIES = 3;

/**
 * One PDF open in a parse thread. When a page hangs or kills the thread, the session starts a
 * fresh thread and reopens the document, so the following pages still get parsed.
 */
export class PdfSession {
  private worker?: ParseWorker;
  private tempDir?: string;
  private filePath?: string;
  private recoveries = 0;
  private recovering?: Promise<void>;

  constructor(
    private readonly pool: ParseWorkerPool,
    private readonly data: Uint8Array,
    private readonly openTimeoutMs: number,
    /** Pages will be rasterised by pdf.js (no pdftoppm): it needs the standard fonts' programs. */
    private readonly renderInThread: boolean,
  ) {}

  async open(): Promise<PdfInfo> {
    this.worker = await this.pool.acquire();
    return this.call<PdfInfo>(
      { op: 'pdf.open', data: this.data, standardFonts: this.renderInThread },
      this.openTimeoutMs,
    );
  }

  /**
   * Reads pages `from`…`to` in order, giving each batch to `onPages` as it arrives. `budget()` is the
   * time the thread may take until its next batch (it is killed past it). Resolves when the pages
   * are read or the thread stopped at `stopAt` (epoch ms) or on `stop()`.
   */
  async pages(
    request: Omit<Extract<WorkerCall, { op: 'pdf.pages' }>, 'op'>,
    budget: () => number,
    onPages: (pages: PageOutcome[]) => void,
  ): Promise<void> {
    const last = await this.call<PackedPages>({ op: 'pdf.pages', ...request }, budget(), (batch) => {
      onPages(unpackPages(batch as PackedPages));
      return budget();
    });
    onPages(unpackPages(last));
  }

  /** Asks a running `pages` call to end after its current page. */
  stop(): void {
    this.worker?.call({ op: 'pdf.stop' }, 10_000).catch(() => undefined);
  }

  /** Rasterises a page with pdf.js in the thread (when pdftoppm is not available). */
  async render(pageNumber: number, dpi: number, timeoutMs: number): Promise<RenderedPage> {
    const value = await this.call<{ png: Uint8Array }>({ op: 'pdf.render', pageNumber, dpi }, timeoutMs);
    const png = Buffer.from(value.png.buffer, value.png.byteOffset, value.png.byteLength);
    return { png, ...pngSize(png), dpi };
  }

  /** The document as a file, for external tools (written once, removed by close). */
  async file(): Promise<string> {
    if (!this.filePath) {
      this.tempDir = await mkdtemp(join(tmpdir(), 'quarry-pdf-'));
      this.filePath = join(this.tempDir, 'document.pdf');
      await writeFile(this.filePath, this.data);
    }
    return this.filePath;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) {
      // The result does not wait for the document to be closed: the thread closes it before anything
      // it is given next (calls are handled in order, and an open closes the previous document too).
      if (worker.alive) worker.call({ op: 'pdf.close' }, 10_000).catch(() => undefined);
      this.pool.release(worker);
    }
    if (this.tempDir) await rm(this.tempDir, { recursive: true, force: true });
  }

  private async call<T>(
    request: Parameters<ParseWorker['call']>[0],
    timeoutMs: number,
    onProgress?: ProgressHandler,
  ): Promise<T> {
    const worker = this.worker;
    if (!worker) throw new Error('PDF session is not open');
    try {
      return await worker.call<T>(request, timeoutMs, onProgress);
    } catch (error) {
      if (
        (error instanceof WorkerTimeoutError || error instanceof WorkerCrashedError) &&
        request.op !== 'pdf.open' &&
        request.op !== 'pdf.close'
      ) {
        await this.recover(worker);
      }
      throw error;
    }
  }

  /**
   * A fresh thread with the document reopened; the session keeps its pool slot. Calls that were in
   * flight on the same dead thread share one recovery.
   */
  private async recover(failed: ParseWorker): Promise<void> {
    if (this.worker !== failed) return this.recovering;
    this.recovering ??= (async () => {
      this.recoveries += 1;
      if (this.recoveries > MAX_RECOVERIES) return; // the dead thread makes every further page fail fast
      const fresh = await this.pool.replace(failed);
      this.worker = fresh;
      await fresh.call(
        { op: 'pdf.open', data: this.data, standardFonts: this.renderInThread },
        this.openTimeoutMs,
      );
    })().finally(() => {
      this.recovering = undefined;
    });
    return this.recovering;
  }
}
