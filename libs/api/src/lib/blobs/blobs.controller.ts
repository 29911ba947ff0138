import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

import { AppError } from '@quarry/contracts';
import { BlobStore } from '@quarry/platform/blob';
import { Public } from '@quarry/platform/runtime';

/**
 * Screenshots, PDFs and other artefacts: the URL itself is the credential (HMAC-signed, expiring),
 * so clients can hand it to a browser or another tool without the API key.
 */
@Controller('v2/blobs')
export class BlobsController {
  constructor(@Inject(BlobStore) private readonly blobs: BlobStore) {}

  @Public()
  @Get('*')
  async get(
    @Param('*') key: string,
    @Query('expires') expires: string | undefined,
    @Query('signature') signature: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const blob = await this.blobs.getSigned(key, expires, signature);
    if (!blob) throw new AppError('NOT_FOUND');
    return reply
      .header('content-type', blob.contentType)
      .header('cache-control', 'private, max-age=3600')
      .send(blob.data);
  }
}
