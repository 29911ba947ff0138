import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { PlatformRuntime } from '@quarry/platform/runtime';

import { type ConsoleAsset, findConsoleDir, loadConsoleAssets } from './console-assets';

/**
 * The console's Content-Security-Policy: its own scripts and styles only (no inline code, no eval),
 * requests to this origin only (the API and the WebSocket watchers), images from this origin
 * (screenshots are blob URLs here) or data URIs; no frames, forms or base URL changes.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * Serves the built web console (apps/console) under `/console/` with the CSP above: hashed assets
 * cached for a year, `index.html` revalidated on every load (ETag), gzip when the client takes it.
 * The console talks to the public API of this same origin with the key the user signs in with.
 */
export async function registerConsoleRoutes(
  fastify: FastifyInstance,
  runtime: Pick<PlatformRuntime, 'config' | 'logger'>,
  dir = findConsoleDir(),
): Promise<void> {
  if (!runtime.config.console.enabled) return;
  const assets = dir ? loadConsoleAssets(dir) : new Map<string, ConsoleAsset>();
  if (!assets.has('index.html'))
    runtime.logger.warn('the web console is not built (npx nx build console): /console answers 404');
  fastify.get('/console', async (_request, reply) => reply.redirect('/console/', 301));
  fastify.get('/console/*', async (request: FastifyRequest, reply: FastifyReply) => {
    const path = (request.params as { '*'?: string })['*'] ?? '';
    // Unknown paths without an extension are views of the single-page app: answer its page.
    const asset =
      assets.get(path || 'index.html') ?? (/\.[a-z0-9]+$/i.test(path) ? undefined : assets.get('index.html'));
    reply.headers(SECURITY_HEADERS);
    if (!asset)
      return reply
        .status(404)
        .type('application/json; charset=utf-8')
        .send({ success: false, error: 'Not Found', code: 'NOT_FOUND' });
    reply
      .header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .header('etag', asset.etag)
      .header('vary', 'accept-encoding')
      .type(asset.type);
    if (request.headers['if-none-match'] === asset.etag) return reply.status(304).send();
    const acceptsGzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    if (asset.gzip && acceptsGzip) return reply.header('content-encoding', 'gzip').send(asset.gzip);
    return reply.send(asset.body);
  });
}
