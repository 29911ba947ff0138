import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';

import type { CollectionKind } from '@quarry/crawl';

/** The GET routes that also accept a WebSocket upgrade (docs/crawl.md#websocket-watcher). */
const WATCH_ROUTES: Record<string, CollectionKind> = {
  '/v2/crawl/:jobId': 'crawl',
  '/v2/batch/scrape/:jobId': 'batch_scrape',
  // firecrawl-py's v1 crawl_url_and_watch (the frames are v2's, docs/v1.md).
  '/v1/crawl/:jobId': 'crawl',
};

export type WatchHandler = (socket: WebSocket, request: FastifyRequest, kind: CollectionKind) => void;

const slots = new WeakMap<FastifyInstance, { handle?: WatchHandler }>();

/**
 * WebSocket part of the API's HTTP setup (see `configureApiHttp`): registers @fastify/websocket and
 * gives the status routes of crawls and batches a WebSocket handler, so `GET /v2/crawl/:id` answers
 * JSON and `ws://…/v2/crawl/:id` streams the watcher frames. The handler itself is attached later by
 * the Nest application (`attachWatchHandler`), which owns the services it needs.
 */
export async function registerWatchRoutes(fastify: FastifyInstance): Promise<void> {
  const slot: { handle?: WatchHandler } = {};
  slots.set(fastify, slot);
  // Must run before the websocket plugin's own onRoute hook, which picks up `wsHandler`.
  fastify.addHook('onRoute', (route) => {
    const kind = WATCH_ROUTES[route.url ?? ''];
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!kind || !methods.includes('GET')) return;
    route.wsHandler = (socket: WebSocket, request: FastifyRequest) => {
      if (slot.handle) slot.handle(socket, request, kind);
      else socket.close(1011, JSON.stringify({ type: 'error', error: 'Service not ready' }));
    };
  });
  await fastify.register(websocket, { options: { maxPayload: 64 * 1024 } });
}

export function attachWatchHandler(fastify: FastifyInstance, handle: WatchHandler): boolean {
  const slot = slots.get(fastify);
  if (!slot) return false;
  slot.handle = handle;
  return true;
}
