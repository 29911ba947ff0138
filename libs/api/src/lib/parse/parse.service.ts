import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CreditsService, minimumCredits } from '@quarry/billing';
import {
  AppError,
  appErrorOf,
  documentKindOf,
  pdfParseOptionsOf,
  type DocumentParseJobMessage,
  type JobEvent,
  type ScrapeDocument,
} from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { DocumentRepository, JobOutcomeStore, JobRepository, JobWaiter } from '@quarry/jobs';
import { BlobStore } from '@quarry/platform/blob';
import { MESSAGE_BUS, publishTimeoutFor, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { PlatformMetrics } from '@quarry/platform/observability';
import type { ParseReference, ParseUpload } from './parse-upload.reader';
import { ParseUploadsService } from './parse-uploads.service';

/** Extra time the gateway waits past the job deadline for the doc-parser's own timeout report. */
const DEADLINE_GRACE_MS = 3_000;

/**
 * Synchronous parse over the bus: the upload goes to the blob store, the job to the doc-parser on
 * `document.parse.jobs`; the completion event wakes this request, which reads the stored document.
 */
@Injectable()
export class ParseService {
  constructor(
    @Inject(CreditsService) private readonly credits: CreditsService,
    @Inject(JobRepository) private readonly jobs: JobRepository,
    @Inject(DocumentRepository) private readonly documents: DocumentRepository,
    @Inject(JobOutcomeStore) private readonly outcomes: JobOutcomeStore,
    @Inject(JobWaiter) private readonly waiter: JobWaiter,
    @Inject(BlobStore) private readonly blobs: BlobStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(PlatformMetrics) private readonly metrics: PlatformMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ParseUploadsService) private readonly uploads: ParseUploadsService,
  ) {}

  async parse(
    auth: AuthContext,
    upload: ParseUpload | ParseReference,
  ): Promise<{ success: true; data: ScrapeDocument }> {
    const request = auth.zeroDataRetention
      ? { ...upload.request, zeroDataRetention: true, storeInCache: false }
      : upload.request;
    await this.credits.ensureAvailable(auth.teamId, minimumCredits());
    const jobId = randomUUID();
    const now = Date.now();
    const deadline = now + request.timeout;
    let input: DocumentParseJobMessage['input'];
    let uploadId: string | undefined;
    if ('uploadRef' in upload) {
      const stored = await this.uploads.resolve(auth, upload.uploadRef);
      uploadId = stored.id;
      const kind = documentKindOf(stored.filename);
      if (!kind)
        throw new AppError('PARSE_UNSUPPORTED_FILE_TYPE', {
          message: `Unsupported file type "${stored.filename}"`,
        });
      input = {
        blobKey: stored.blobKey,
        kind,
        filename: stored.filename,
        contentType: stored.contentType ?? undefined,
        sizeBytes: stored.sizeBytes ?? 0,
      };
    } else {
      const stored = await this.blobs.put(
        `parse-inputs/${jobId}`,
        upload.data,
        upload.contentType ?? 'application/octet-stream',
        request.timeout + 5 * 60_000,
      );
      input = {
        blobKey: stored.key,
        kind: upload.kind,
        filename: upload.filename.slice(0, 1_024),
        contentType: upload.contentType?.slice(0, 256),
        sizeBytes: upload.data.length,
      };
    }
    await this.jobs.create({
      id: jobId,
      teamId: auth.teamId,
      apiKeyId: auth.apiKeyId,
      kind: 'parse',
      input: {
        file: { name: input.filename, kind: input.kind, sizeBytes: input.sizeBytes },
        options: request,
      },
      zeroDataRetention: request.zeroDataRetention,
      expiresAt: new Date(now + this.config.jobs.retentionHours * 3_600_000),
    });
    const message: DocumentParseJobMessage = {
      parseId: randomUUID(),
      jobId,
      teamId: auth.teamId,
      input,
      pdf: pdfParseOptionsOf(request.parsers),
      reply: { type: 'job', request },
      deadline,
      enqueuedAt: now,
    };
    const completion = this.waiter.wait(jobId, request.timeout + DEADLINE_GRACE_MS);
    await this.bus.publish('documentParseJobs', message, {
      key: jobId,
      timeoutMs: publishTimeoutFor(deadline),
    });
    this.metrics.jobsQueued.inc({ kind: 'parse' });
    const event = await completion;
    if (!event) {
      await this.outcomes.fail(jobId, { code: 'SCRAPE_TIMEOUT', message: 'Request Timeout' });
      if (!uploadId) await this.blobs.delete(input.blobKey).catch(() => undefined);
      throw new AppError('SCRAPE_TIMEOUT');
    }
    const data = await this.resultOf(event);
    // The doc-parser consumed the uploaded blob: the reference is spent.
    if (uploadId) await this.uploads.markParsed(uploadId);
    return { success: true, data };
  }

  private async resultOf(event: JobEvent): Promise<ScrapeDocument> {
    if (event.status !== 'completed') {
      throw appErrorOf(event.error);
    }
    if (event.inlineResult) return event.inlineResult;
    const stored = await this.documents.findByJob(event.jobId);
    if (!stored)
      throw new AppError('UNKNOWN_ERROR', { message: 'The parse finished but its result is not available' });
    return stored.document;
  }
}
