import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';

import { type CollectionStatusResponse, isAppError, type WatcherFrame } from '@quarry/contracts';
import { type CollectionKind, CollectionService } from '@quarry/crawl';
import { AuthService, hasScope } from '@quarry/identity';
import { LOGGER, type Logger } from '@quarry/platform/observability';

import { callerOf } from '../crawl/caller.util';
import { attachWatchHandler } from './watch-routes';

const POLL_MS = 1_000;
const BATCH = 100;
const CLOSE = { done: 1000, notFound: 1008, forbidden: 3003, unauthorized: 3000, internal: 1011 } as const;
/** The scope the status route of each kind requires over HTTP (crawl and batch-scrape controllers). */
const SCOPE: Record<CollectionKind, string> = { crawl: 'crawl', batch_scrape: 'scrape' };

/**
 * The WebSocket watcher of crawls and batches (docs/crawl.md#websocket-watcher): the API key comes as the subprotocol
 * (echoed by the server) or the Authorization header; the socket gets a `catchup` frame with the
 * status, a `document` frame per finished page (checked every second), and on completion a `done`
 * frame and close 1000. Failed and cancelled jobs close without `done`, so the SDK's fallback poll
 * reports the real status.
 */
@Injectable()
export class CollectionWatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly sockets = new Set<WebSocket>();

  constructor(
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(AuthService) private readonly auth: AuthService,
    @Inject(CollectionService) private readonly collections: CollectionService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance() as FastifyInstance | undefined;
    if (
      !fastify ||
      !attachWatchHandler(fastify, (socket, request, kind) => void this.watch(socket, request, kind))
    ) {
      this.logger.warn(
        'WebSocket watchers are not available: the HTTP app was not set up with configureApiHttp',
      );
    }
  }

  beforeApplicationShutdown(): void {
    for (const socket of this.sockets)
      socket.close(1001, JSON.stringify({ type: 'error', error: 'Server shutting down' }));
  }

  private async watch(socket: WebSocket, request: FastifyRequest, kind: CollectionKind): Promise<void> {
    this.sockets.add(socket);
    let closed = false;
    socket.on('close', () => {
      closed = true;
      this.sockets.delete(socket);
    });
    const close = (code: number, reason?: object) => {
      if (!closed) socket.close(code, reason ? JSON.stringify(reason).slice(0, 120) : undefined);
      closed = true;
    };
    const send = (frame: WatcherFrame) => {
      if (!closed) socket.send(JSON.stringify(frame));
    };
    try {
      const context = await this.authenticate(request).catch(() => undefined);
      if (!context) return close(CLOSE.unauthorized, { type: 'error', error: 'Unauthorized' });
      if (!hasScope(context, SCOPE[kind]))
        return close(CLOSE.forbidden, { type: 'error', error: 'Forbidden' });
      const caller = callerOf(context);
      const id = (request.params as { jobId?: string }).jobId ?? '';
      let summary: Awaited<ReturnType<CollectionService['summary']>>;
      try {
        summary = await this.collections.summary(caller, kind, id);
      } catch (error) {
        if (isAppError(error) && (error.status === 404 || error.status === 400))
          return close(CLOSE.notFound, { type: 'error', error: 'Job not found' });
        throw error;
      }
      // catchup: the status with the documents finished so far
      let lastSeq = 0;
      const first = await this.collections.status(caller, kind, id, { skip: 0, limit: 1_000 });
      lastSeq = first.data.length;
      send({ type: 'catchup', data: catchupOf(first) });
      if (first.status !== 'scraping')
        return close(CLOSE.done, first.status === 'completed' ? { type: 'done' } : undefined);
      while (!closed) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        if (closed) return;
        summary = await this.collections.summary(caller, kind, id);
        for (;;) {
          const documents = await this.collections.documentsAfter(id, lastSeq, BATCH);
          for (const entry of documents) {
            send({ type: 'document', data: entry.document });
            lastSeq = entry.seq;
          }
          if (documents.length < BATCH) break;
        }
        const status = summary.status;
        if (status.status === 'completed') {
          send({
            type: 'done',
            data: {
              status: status.status,
              completed: status.completed,
              total: status.total,
              creditsUsed: status.creditsUsed,
              expiresAt: status.expiresAt,
            },
          });
          return close(CLOSE.done, { type: 'done' });
        }
        if (status.status !== 'scraping') return close(CLOSE.done);
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'watcher failed');
      send({ type: 'error', error: 'Internal Server Error' });
      close(CLOSE.internal, { type: 'error', error: 'Internal Server Error' });
    }
  }

  private authenticate(request: FastifyRequest) {
    const header = request.headers['authorization'];
    if (header) return this.auth.authenticate(Array.isArray(header) ? header[0] : header);
    const protocols = request.headers['sec-websocket-protocol'];
    const key = (Array.isArray(protocols) ? protocols[0] : protocols)?.split(',')[0]?.trim();
    return this.auth.authenticateKey(key || undefined);
  }
}

/**
 * The `catchup` frame's status. A running job's later documents come as `document` frames, so its
 * `next` is dropped; a finished job's socket closes after the catchup, so its `next` (documents
 * beyond the first page) stays for the caller to follow. A job that failed before storing anything (its
 * start URL failed: a kickoff failure) is reported as docs/crawl.md#websocket-watcher says, with `success:false`; the
 * SDK's watcher reads only `status` and ends on it.
 */
function catchupOf(status: CollectionStatusResponse): Extract<WatcherFrame, { type: 'catchup' }>['data'] {
  const { next, ...rest } = status;
  if (status.status === 'failed' && status.completed === 0)
    return { ...rest, success: false, total: 0, completed: 0, creditsUsed: 0, data: [] };
  return status.status === 'scraping' || !next ? rest : { ...rest, next };
}
