import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';

import { CreditsService, minimumCredits } from '@quarry/billing';
import {
  AppError,
  documentKindOf,
  type DocumentParseJobMessage,
  type JobEvent,
  pdfParseOptionsOf,
  type ScrapeDocument,
} from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { JobDispatcher, type NewJob } from '@quarry/jobs';
import { BlobStore } from '@quarry/platform/blob';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';

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
    @Inject(JobDispatcher) private readonly dispatcher: JobDispatcher,
    @Inject(BlobStore) private readonly blobs: BlobStore,
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
    const job: NewJob = {
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
    };
    // A blob this request stored is its own to delete when no doc-parser will read it.
    const dropInput = async () => {
      if (!uploadId) await this.blobs.delete(input.blobKey).catch(() => undefined);
    };
    let event: JobEvent | undefined;
    try {
      event = await this.dispatcher.run(
        { job, topic: 'documentParseJobs', message, deadline },
        request.timeout + DEADLINE_GRACE_MS,
      );
    } catch (error) {
      await dropInput();
      throw error;
    }
    if (!event) {
      const timedOut = await this.dispatcher.timedOut(jobId);
      await dropInput();
      throw timedOut;
    }
    const data = await this.dispatcher.documentOf(event);
    // The doc-parser consumed the uploaded blob: the reference is spent.
    if (uploadId) await this.uploads.markParsed(uploadId);
    return { success: true, data };
  }
}
