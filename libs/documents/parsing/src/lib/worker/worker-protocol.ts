import type { DocumentKind } from '@quarry/contracts';
import type { OfficeConvertOptions } from '../office/office-output.types';

/** Limits handed to every parse worker thread at start. */
export interface WorkerSettings {
  maxItemsPerPage: number;
  maxOperatorsPerPage: number;
  maxImagePixels: number;
  maxRenderPixels: number;
}

export type WorkerRequest =
  | { id: number; op: 'ping' }
  | { id: number; op: 'pdf.open'; data: Uint8Array; password?: string; standardFonts: boolean }
  | { id: number; op: 'pdf.page'; pageNumber: number; graphics: boolean }
  | { id: number; op: 'pdf.render'; pageNumber: number; dpi: number }
  | { id: number; op: 'pdf.close' }
  | {
      id: number;
      op: 'office.convert';
      kind: DocumentKind;
      data: Uint8Array;
      filename: string;
      options: OfficeConvertOptions;
    };

export type WorkerOp = WorkerRequest['op'];

export interface WorkerFailure {
  name: string;
  message: string;
  /** Set by errors that carry a classification (PdfOpenError: encrypted | invalid). */
  reason?: string;
}

export type WorkerResponse =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WorkerFailure };
