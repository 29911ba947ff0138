/** A recognised word in image pixels (top-left origin). */
export interface OcrWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** 0–1. */
  confidence: number;
  /** Identifies the OCR line the word belongs to. */
  line: string;
}

export interface OcrLine {
  key: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface OcrResult {
  /** Image size in pixels. */
  width: number;
  height: number;
  words: OcrWord[];
  lines: OcrLine[];
}

export interface OcrOptions {
  timeoutMs: number;
  /** Resolution the image was rendered at (helps Tesseract size its analysis). */
  dpi?: number;
  signal?: AbortSignal;
}

/** Optical character recognition of one page image. */
export interface OcrEngine {
  readonly name: string;
  recognize(image: Buffer, options: OcrOptions): Promise<OcrResult>;
  close(): Promise<void>;
}

/** An OCR run that ran past its time budget (the engine process was stopped). */
export class OcrTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`OCR did not finish within ${timeoutMs} ms`);
    this.name = 'OcrTimeoutError';
  }
}
