import { DisabledOcrEngine } from './ocr/disabled-ocr.engine';
import type { OcrEngine } from './ocr/ocr-engine';
import { TesseractCliEngine } from './ocr/tesseract-cli.engine';
import { TesseractJsEngine } from './ocr/tesseract-js.engine';
import type { DocumentLimits } from './office/office-output.types';
import { runProcess } from './process/run-process';
import { PdftoppmRenderer } from './render/pdftoppm.renderer';
import { ParseWorkerPool, type ParseWorkerPoolOptions } from './worker/parse-worker-pool';

export interface DocumentParsingSettings {
  /** Budget of one page: text extraction, or rendering plus OCR. */
  pageTimeoutMs: number;
  /** Budget for opening a document (and for converting a non-PDF document). */
  openTimeoutMs: number;
  ocrDpi: number;
  /** Pages of one document rendered and recognised at the same time. */
  ocrConcurrency: number;
  maxRenderPixels: number;
  /** How far a non-PDF document may expand while converted (archive entries, output). */
  limits: DocumentLimits;
}

/** The engines a parse uses: worker threads, an OCR engine, a page renderer, and their limits. */
export interface DocumentToolkit {
  pool: ParseWorkerPool;
  ocr: OcrEngine;
  /** Poppler's renderer; absent when pages are rasterised by pdf.js in the parse thread. */
  pdftoppm?: PdftoppmRenderer;
  /** LibreOffice for legacy binary Office files (.doc, .xls, .xlsb, .ppt); absent when not installed. */
  soffice?: string;
  /** Ghostscript, to rewrite damaged PDFs pdf.js cannot open; absent when not installed. */
  ghostscript?: string;
  settings: DocumentParsingSettings;
}

export interface ToolkitOptions {
  workers: number;
  workerMemoryMb: number;
  settings: DocumentParsingSettings;
  ocrEngine: 'auto' | 'tesseract' | 'tesseract-js' | 'off';
  ocrLanguages: string;
  tesseractCommand: string;
  renderer: 'auto' | 'pdftoppm' | 'pdfjs';
  pdftoppmCommand: string;
  sofficeCommand?: string;
  ghostscriptCommand?: string;
  onWorkerEvent?: ParseWorkerPoolOptions['onEvent'];
}

export interface ToolkitDescription {
  ocr: string;
  renderer: string;
  legacyOffice: boolean;
  pdfRepair: boolean;
}

/** Picks the engines: Debian's tesseract and pdftoppm when installed (faster, killable), else tesseract.js and pdf.js. */
export async function createDocumentToolkit(
  options: ToolkitOptions,
): Promise<{ toolkit: DocumentToolkit; description: ToolkitDescription }> {
  const useCli =
    options.ocrEngine === 'tesseract' ||
    (options.ocrEngine === 'auto' &&
      (await TesseractCliEngine.available(options.tesseractCommand, options.ocrLanguages)));
  const ocr: OcrEngine =
    options.ocrEngine === 'off'
      ? new DisabledOcrEngine()
      : useCli
        ? new TesseractCliEngine(options.tesseractCommand, options.ocrLanguages)
        : new TesseractJsEngine(options.ocrLanguages);
  const usePdftoppm =
    options.renderer === 'pdftoppm' ||
    (options.renderer === 'auto' && (await PdftoppmRenderer.available(options.pdftoppmCommand)));
  const pdftoppm = usePdftoppm ? new PdftoppmRenderer(options.pdftoppmCommand) : undefined;
  const soffice =
    options.sofficeCommand && (await commandRuns(options.sofficeCommand))
      ? options.sofficeCommand
      : undefined;
  const ghostscript =
    options.ghostscriptCommand && (await commandRuns(options.ghostscriptCommand))
      ? options.ghostscriptCommand
      : undefined;
  const pool = new ParseWorkerPool({
    size: options.workers,
    memoryMb: options.workerMemoryMb,
    settings: {
      maxItemsPerPage: 50_000,
      maxOperatorsPerPage: 2_000_000,
      maxImagePixels: 60_000_000,
      maxRenderPixels: options.settings.maxRenderPixels,
    },
    onEvent: options.onWorkerEvent,
  });
  // pdf.js rendering happens in the document's own thread: one page at a time.
  const settings = pdftoppm ? options.settings : { ...options.settings, ocrConcurrency: 1 };
  return {
    toolkit: { pool, ocr, pdftoppm, soffice, ghostscript, settings },
    description: {
      ocr: ocr.name,
      renderer: pdftoppm ? pdftoppm.name : 'pdfjs',
      legacyOffice: !!soffice,
      pdfRepair: !!ghostscript,
    },
  };
}

async function commandRuns(command: string): Promise<boolean> {
  try {
    await runProcess(command, ['--version'], { timeoutMs: 20_000, maxOutputBytes: 100_000 });
    return true;
  } catch {
    return false;
  }
}

export async function closeDocumentToolkit(toolkit: DocumentToolkit): Promise<void> {
  await Promise.allSettled([toolkit.pool.close(), toolkit.ocr.close()]);
}
