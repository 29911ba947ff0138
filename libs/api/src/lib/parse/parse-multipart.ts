import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

import type { PlatformRuntime } from '@quarry/platform/runtime';

import { registerUploadRoute } from './parse-upload.route';

/**
 * HTTP setup of `POST /v2/parse` (the only multipart route) and of the raw upload route of upload
 * references. JSON parsing of every other request stays as registered by the platform; files above
 * PARSE_MAX_FILE_BYTES answer 413.
 */
export async function registerParseUploads(
  fastify: FastifyInstance,
  runtime: PlatformRuntime,
): Promise<void> {
  await fastify.register(multipart, {
    limits: {
      fileSize: runtime.config.documents.maxUploadBytes,
      files: 4,
      fields: 16,
      parts: 24,
      fieldSize: 1024 * 1024,
      headerPairs: 200,
    },
    throwFileSizeLimit: true,
  });
  await registerUploadRoute(fastify, runtime);
}
