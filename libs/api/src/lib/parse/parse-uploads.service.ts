import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';

import {
  AppError,
  documentKindOf,
  PARSE_EXTENSIONS,
  PARSE_UPLOADS,
  type ParseUploadUrlRequest,
} from '@quarry/contracts';
import type { AuthContext } from '@quarry/identity';
import { type ParseUploadRecord, ParseUploadRepository } from '@quarry/jobs';
import { blobSigningSecret } from '@quarry/platform/blob';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';

import { UploadSigner } from './upload-signer';

export interface UploadTicket {
  uploadUrl: string;
  uploadRef: string;
  method: 'PUT';
  headers: Record<string, string>;
  expiresAt: string;
  maxSizeBytes: number;
}

/**
 * Upload references (docs/documents.md#other-formats-post-v2parse): a signed PUT URL to send a large file to, then `POST /v2/parse
 * {uploadRef}`. References live 10 minutes; a team may hold 10 unparsed ones per 24 hours.
 */
@Injectable()
export class ParseUploadsService {
  private readonly signer: UploadSigner;

  constructor(
    @Inject(ParseUploadRepository) private readonly uploads: ParseUploadRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.signer = new UploadSigner(blobSigningSecret(config));
  }

  async mint(
    auth: AuthContext,
    request: ParseUploadUrlRequest,
  ): Promise<{ success: true; data: UploadTicket }> {
    const maxSizeBytes = this.config.documents.maxUploadBytes;
    if (!documentKindOf(request.filename)) {
      throw new AppError('PARSE_UNSUPPORTED_FILE_TYPE', {
        message: `Unsupported file type "${request.filename}": supported extensions are ${Object.keys(PARSE_EXTENSIONS).join(' ')}`,
      });
    }
    if (request.declaredSizeBytes !== undefined && request.declaredSizeBytes > maxSizeBytes) {
      throw new AppError('PAYLOAD_TOO_LARGE', { message: `Files may be at most ${maxSizeBytes} bytes` });
    }
    const unparsed = await this.uploads.countUnparsedSince(
      auth.teamId,
      new Date(Date.now() - 24 * 3_600_000),
    );
    if (unparsed >= PARSE_UPLOADS.maxUnparsedPerDay)
      throw new AppError('PARSE_UPLOAD_UNPARSED_LIMIT_REACHED', { retryAfterSeconds: 600 });
    const id = randomUUID();
    const expiresAt = new Date(Date.now() + PARSE_UPLOADS.ttlMs);
    await this.uploads.create({
      id,
      teamId: auth.teamId,
      filename: request.filename,
      contentType: request.contentType,
      declaredSize: request.declaredSizeBytes,
      expiresAt,
    });
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return {
      success: true,
      data: {
        uploadUrl: `${this.config.service.publicUrl}/v2/parse/upload/${id}?expires=${expires}&signature=${this.signer.urlSignature(id, expires)}`,
        uploadRef: this.signer.reference(id),
        method: 'PUT',
        headers: { 'content-type': request.contentType ?? 'application/octet-stream' },
        expiresAt: expiresAt.toISOString(),
        maxSizeBytes,
      },
    };
  }

  /** The uploaded file behind a reference of the team, ready to parse. */
  async resolve(auth: AuthContext, reference: string): Promise<ParseUploadRecord & { blobKey: string }> {
    const id = this.signer.verifyReference(reference);
    const upload = id ? await this.uploads.findForTeam(id, auth.teamId) : undefined;
    if (!upload) throw new AppError('NOT_FOUND', { message: 'Upload reference not found' });
    if (upload.parsedAt)
      throw new AppError('CONFLICT', {
        message: 'This upload was already parsed; upload the file again to parse it again',
      });
    if (upload.expiresAt.getTime() < Date.now())
      throw new AppError('BAD_REQUEST', {
        message: 'The upload reference has expired; request a new one with POST /v2/parse/upload-url',
      });
    if (!upload.blobKey)
      throw new AppError('BAD_REQUEST', {
        message: 'Nothing was uploaded for this reference yet: PUT the file to its uploadUrl first',
      });
    return { ...upload, blobKey: upload.blobKey };
  }

  markParsed(id: string): Promise<boolean> {
    return this.uploads.markParsed(id);
  }
}
