import type { FastifyInstance, FastifyRequest } from 'fastify';

import { AppError, parseUploadResponseSchema } from '@quarry/contracts';
import { ParseUploadRepository } from '@quarry/jobs';
import { blobSigningSecret, BlobStore } from '@quarry/platform/blob';
import { type PlatformRuntime, renderError } from '@quarry/platform/runtime';

import type { DocumentedRoute } from '../openapi/openapi.util';
import { UploadSigner } from './upload-signer';

/** The route's contract for the OpenAPI document (a Fastify route, so it carries no @Route). */
export const PARSE_UPLOAD_ROUTE: DocumentedRoute = {
  path: '/v2/parse/upload/{uploadId}',
  spec: {
    method: 'put',
    summary: 'Upload the raw file of an upload reference (the signed uploadUrl is the credential)',
    tag: 'parse',
    auth: 'public',
    response: parseUploadResponseSchema,
    statuses: [400, 404, 409, 413],
  },
};

/**
 * `PUT /v2/parse/upload/:uploadId?expires&signature`: the raw file of an upload reference. The
 * signed URL is the credential (no API key), the body is read as bytes up to PARSE_MAX_FILE_BYTES
 * (413 above) in a Fastify context of its own, so the API's JSON body parsing is untouched.
 */
export async function registerUploadRoute(fastify: FastifyInstance, runtime: PlatformRuntime): Promise<void> {
  const { config, database, logger } = runtime;
  const signer = new UploadSigner(blobSigningSecret(config));
  const uploads = new ParseUploadRepository(database);
  const blobs = new BlobStore({
    dir: config.blob.dir,
    publicUrl: config.service.publicUrl,
    signingSecret: blobSigningSecret(config),
  });
  await fastify.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: config.documents.maxUploadBytes },
      (_request, body, done) => done(null, body),
    );
    scope.setErrorHandler((error, request, reply) => {
      const rendered = renderError(error, logger.child({ component: 'http' }), {
        method: request.method,
        url: request.url.split('?')[0],
      });
      void reply.status(rendered.status).headers(rendered.headers).send(rendered.body);
    });
    scope.put(
      '/v2/parse/upload/:uploadId',
      async (
        request: FastifyRequest<{
          Params: { uploadId: string };
          Querystring: { expires?: string; signature?: string };
        }>,
        reply,
      ) => {
        const { uploadId } = request.params;
        if (!signer.verifyUrl(uploadId, request.query.expires, request.query.signature))
          throw new AppError('NOT_FOUND');
        const upload = await uploads.find(uploadId.toLowerCase());
        if (!upload || upload.expiresAt.getTime() < Date.now()) throw new AppError('NOT_FOUND');
        if (upload.parsedAt) throw new AppError('CONFLICT', { message: 'This upload was already parsed' });
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (body.length === 0) throw new AppError('BAD_REQUEST', { message: 'The upload is empty' });
        if (upload.declaredSize !== null && body.length > upload.declaredSize) {
          throw new AppError('BAD_REQUEST', {
            message: `The upload has ${body.length} bytes, more than the ${upload.declaredSize} declared`,
          });
        }
        const stored = await blobs.put(
          `parse-uploads/${upload.teamId}`,
          body,
          upload.contentType ?? 'application/octet-stream',
          upload.expiresAt.getTime() - Date.now() + 3_600_000,
        );
        const replaced = await uploads.markUploaded(upload.id, stored.key, body.length);
        if (replaced === undefined) {
          await blobs.delete(stored.key);
          throw new AppError('CONFLICT', { message: 'This upload was already parsed' });
        }
        if (replaced) await blobs.delete(replaced).catch(() => undefined);
        return reply.status(200).send({ success: true, sizeBytes: body.length });
      },
    );
  });
}
