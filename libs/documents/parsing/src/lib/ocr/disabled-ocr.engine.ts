import type { OcrEngine, OcrResult } from './ocr-engine';

/** OCR asked of a deployment that turned it off (`OCR_ENGINE=off`). */
export class OcrDisabledError extends Error {
  constructor() {
    super('OCR is turned off on this deployment (OCR_ENGINE=off)');
    this.name = 'OcrDisabledError';
  }
}

/**
 * `OCR_ENGINE=off`: no recognition at all. Scanned PDF pages keep whatever text layer they have,
 * images are not parsed, and `GET /v2/parse/formats` lists the image formats as unavailable.
 */
export class DisabledOcrEngine implements OcrEngine {
  readonly name = 'off';

  recognize(): Promise<OcrResult> {
    return Promise.reject(new OcrDisabledError());
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
