import type { DocumentKind } from '@quarry/contracts';

import type { DocumentLimits, OfficeConvertOptions } from '../office/office-output.types';

/** Limits handed to every parse worker thread at start. */
export interface WorkerSettings {
  maxItemsPerPage: number;
  maxOperatorsPerPage: number;
  maxImagePixels: number;
  maxRenderPixels: number;
}

/** The calls a parse worker thread answers. */
export type WorkerCall =
  | { op: 'ping' }
  | { op: 'pdf.open'; data: Uint8Array; password?: string; standardFonts: boolean }
  | { op: 'pdf.page'; pageNumber: number; graphics: boolean }
  | { op: 'pdf.render'; pageNumber: number; dpi: number }
  | { op: 'pdf.close' }
  | {
      op: 'office.convert';
      kind: DocumentKind;
      data: Uint8Array;
      filename: string;
      options: OfficeConvertOptions;
      limits: DocumentLimits;
    };

export type WorkerOp = WorkerCall['op'];
