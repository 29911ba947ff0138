import { randomUUID } from 'node:crypto';

import {
  AppError,
  appErrorOf,
  type DocumentKind,
  type ParsedDocumentOutput,
  type PdfParseOptions,
} from '@quarry/contracts';
import type { BlobStore } from '@quarry/platform/blob';
import type { MessageBus } from '@quarry/platform/bus';

import type { ParseResultWaiter } from './parse-result.waiter';

export interface RemoteParseInput {
  data: Buffer;
  kind: DocumentKind;
  filename: string;
  contentType?: string;
}

export interface RemoteParseContext {
  jobId: string;
  teamId: string;
  /** Epoch ms when the scrape job's budget ends. */
  deadline: number;
  signal: AbortSignal;
}

/** Time kept back for fetching the result blob and storing the scrape outcome. */
const RESULT_MARGIN_MS = 1_500;
/** How long the doc-parser's result may lag its own deadline before we stop waiting. */
const WAIT_GRACE_MS = 2_000;

/**
 * The scrape worker's side of PDF parsing: the bytes go to the blob store, a job goes to the
 * doc-parser over `document.parse.jobs`, and the parsed content comes back as a blob announced on
 * `document.parse.results`. The same path runs over the in-memory bus in one-process mode.
 */
export class RemoteDocumentParser {
  constructor(
    private readonly bus: MessageBus,
    private readonly blobs: BlobStore,
    private readonly waiter: ParseResultWaiter,
  ) {}

  async parse(
    input: RemoteParseInput,
    pdf: PdfParseOptions,
    context: RemoteParseContext,
  ): Promise<ParsedDocumentOutput> {
    const deadline = context.deadline - RESULT_MARGIN_MS;
    const budget = deadline - Date.now();
    if (budget < 1_000 || context.signal.aborted)
      throw new AppError('SCRAPE_PDF_INSUFFICIENT_TIME_ERROR', {
        message: 'No time was left to parse the PDF; retry with a higher timeout',
      });
    const stored = await this.blobs.put(
      `parse-inputs/${context.jobId}`,
      input.data,
      input.contentType ?? 'application/octet-stream',
      budget + 5 * 60_000,
    );
    const parseId = randomUUID();
    const result = this.waiter.expect(parseId, budget + WAIT_GRACE_MS, context.signal);
    try {
      await this.bus.publish(
        'documentParseJobs',
        {
          parseId,
          jobId: context.jobId,
          teamId: context.teamId,
          input: {
            blobKey: stored.key,
            kind: input.kind,
            filename: input.filename.slice(0, 1_024),
            contentType: input.contentType?.slice(0, 256),
            sizeBytes: input.data.length,
          },
          pdf,
          reply: { type: 'result' },
          deadline,
          enqueuedAt: Date.now(),
        },
        { key: parseId },
      );
    } catch (error) {
      await this.blobs.delete(stored.key).catch(() => undefined);
      throw error;
    }
    const event = await result;
    if (!event) {
      await this.blobs.delete(stored.key).catch(() => undefined);
      throw new AppError('SCRAPE_TIMEOUT');
    }
    if (event.status === 'failed') {
      throw appErrorOf(event.error);
    }
    const blob = event.resultKey ? await this.blobs.get(event.resultKey) : undefined;
    if (!blob || !event.resultKey)
      throw new AppError('UNKNOWN_ERROR', { message: 'The PDF was parsed but its result is not available' });
    await this.blobs.delete(event.resultKey).catch(() => undefined);
    return JSON.parse(blob.data.toString('utf8')) as ParsedDocumentOutput;
  }
}
