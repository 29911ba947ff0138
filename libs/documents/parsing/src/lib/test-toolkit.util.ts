import { createDocumentToolkit, type DocumentToolkit, type ToolkitOptions } from './document-toolkit';
import { DEFAULT_DOCUMENT_LIMITS } from './office/office-output.types';
import type { DocumentParseRequest } from './parse-document';

/** A toolkit for integration tests: one warm thread, Debian tesseract and pdftoppm unless overridden. */
export async function testToolkit(
  overrides: Partial<Omit<ToolkitOptions, 'settings'>> & {
    settings?: Partial<ToolkitOptions['settings']>;
  } = {},
): Promise<DocumentToolkit> {
  const { toolkit } = await createDocumentToolkit({
    workers: 1,
    workerMemoryMb: 512,
    ocrEngine: 'auto',
    ocrLanguages: 'eng',
    tesseractCommand: 'tesseract',
    renderer: 'auto',
    pdftoppmCommand: 'pdftoppm',
    ...overrides,
    settings: {
      pageTimeoutMs: 30_000,
      openTimeoutMs: 60_000,
      ocrDpi: 200,
      ocrConcurrency: 2,
      maxRenderPixels: 12_000_000,
      limits: DEFAULT_DOCUMENT_LIMITS,
      ...overrides.settings,
    },
  });
  return toolkit;
}

export function pdfRequest(
  data: Buffer,
  pdf: Partial<DocumentParseRequest['pdf']> = {},
  budgetMs = 120_000,
): DocumentParseRequest {
  return {
    kind: 'pdf',
    data,
    filename: 'fixture.pdf',
    pdf: { mode: 'auto', pages: false, blocks: false, pageMarkers: false, ...pdf },
    content: { formats: ['markdown'], onlyMainContent: true, removeBase64Images: true },
    budget: { deadline: Date.now() + budgetMs },
  };
}
