import {
  closeDocumentToolkit,
  createDocumentToolkit,
  type DocumentToolkit,
  type ToolkitDescription,
} from '@quarry/documents/parsing';
import type { AppConfig } from '@quarry/platform/config';
import type { Logger, PlatformMetrics } from '@quarry/platform/observability';

/** Largest bitmap a page is rasterised to for OCR (about A4 at 300 dpi). */
const MAX_RENDER_PIXELS = 12_000_000;

/** Builds the parsing engines from configuration and warms one parse thread. */
export async function startDocumentToolkit(
  config: AppConfig,
  logger: Logger,
  metrics: PlatformMetrics,
): Promise<{ toolkit: DocumentToolkit; description: ToolkitDescription }> {
  const documents = config.documents;
  const started = await createDocumentToolkit({
    workers: documents.concurrency,
    workerMemoryMb: documents.workerMemoryMb,
    settings: {
      pageTimeoutMs: documents.pageTimeoutMs,
      openTimeoutMs: documents.convertTimeoutMs,
      ocrDpi: documents.ocr.dpi,
      ocrConcurrency: documents.ocr.concurrency,
      maxRenderPixels: MAX_RENDER_PIXELS,
      limits: documents.limits,
    },
    ocrEngine: documents.ocr.engine,
    ocrLanguages: documents.ocr.languages,
    tesseractCommand: documents.ocr.tesseractPath,
    renderer: documents.renderer,
    pdftoppmCommand: documents.pdftoppmPath,
    sofficeCommand: documents.sofficePath,
    ghostscriptCommand: documents.ghostscriptPath,
    onWorkerEvent: (event, detail) => {
      metrics.documentWorkerEvents.inc({ event });
      if (event === 'spawned') logger.debug('parse worker thread started');
      else logger.warn({ event, detail }, 'parse worker thread stopped');
    },
  });
  await started.toolkit.pool
    .warm()
    .catch((error: unknown) => logger.warn({ err: error }, 'parse worker warm-up failed'));
  logger.info(started.description, 'document parsing ready');
  return started;
}

export { closeDocumentToolkit };
