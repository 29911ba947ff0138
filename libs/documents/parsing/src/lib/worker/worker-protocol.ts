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
  | {
      /**
       * Pages `from`…`to` but `skip` in order, sent back in batches (progress values, the last batch
       * as the answer) of the pages read in about `flushMs`; no page is started at or after `stopAt`
       * (epoch ms). The page being read is the worker's mark.
       */
      op: 'pdf.pages';
      from: number;
      to: number;
      skip: number[];
      graphics: boolean;
      flushMs: number;
      stopAt: number;
    }
  /** Ends a running `pdf.pages` call after its current page. */
  | { op: 'pdf.stop' }
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
