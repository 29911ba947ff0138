import multipart from '@fastify/multipart';
import type { AppConfig } from '@quarry/platform/config';
import type { FastifyInstance } from 'fastify';

/**
 * Multipart uploads for `POST /v2/parse` (the only multipart route). JSON parsing of every other
 * content type stays as registered by the platform; files above PARSE_MAX_FILE_BYTES answer 413.
 */
export async function registerParseUploads(fastify: FastifyInstance, config: AppConfig): Promise<void> {
  await fastify.register(multipart, {
    limits: { fileSize: config.documents.maxUploadBytes, files: 4, fields: 16, parts: 24, fieldSize: 1024 * 1024, headerPairs: 200 },
    throwFileSizeLimit: true,
  });
}
