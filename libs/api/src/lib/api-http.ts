import type { FastifyInstance } from 'fastify';

import type { PlatformRuntime } from '@quarry/platform/runtime';

import { registerConsoleRoutes } from './console/console-routes';
import { registerParseUploads } from './parse/parse-multipart';
import { registerWatchRoutes } from './watcher/watch-routes';

/**
 * Fastify-level setup of the API, before Nest registers its routes (pass as `configureHttp` to
 * `main`/`runService`): WebSocket watchers of crawls and batches, the multipart and raw upload
 * routes of `/v2/parse`, and the web console under `/console/`.
 */
export async function configureApiHttp(fastify: FastifyInstance, runtime: PlatformRuntime): Promise<void> {
  await registerWatchRoutes(fastify);
  await registerParseUploads(fastify, runtime);
  await registerConsoleRoutes(fastify, runtime);
}
