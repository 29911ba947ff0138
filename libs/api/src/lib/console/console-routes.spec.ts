import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import Fastify, { type FastifyInstance } from 'fastify';

import type { PlatformRuntime } from '@quarry/platform/runtime';
import { testConfig } from '@quarry/testing';

import { CONSOLE_CSP, registerConsoleRoutes as sut } from './console-routes';

const logger = { warn: jest.fn() } as unknown as PlatformRuntime['logger'];

describe('console routes', () => {
  let dir: string;
  let app: FastifyInstance;
  const script = `console.log(${JSON.stringify('x'.repeat(2_000))});`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'console-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><title>Quarry</title><script type="module" src="/console/assets/app-1a2b.js"></script>',
    );
    writeFileSync(join(dir, 'assets', 'app-1a2b.js'), script);
    writeFileSync(join(dir, 'assets', 'app-1a2b.js.map'), '{}');
    writeFileSync(join(dir, 'secret.env'), 'not served');
    app = Fastify();
    await sut(app, { config: testConfig(), logger }, dir);
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the page with a strict CSP, revalidated by ETag', async () => {
    expect((await app.inject({ url: '/console' })).headers['location']).toBe('/console/');
    const page = await app.inject({ url: '/console/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).toContain("connect-src 'self'");
    expect(CONSOLE_CSP).not.toMatch(/unsafe-(inline|eval)/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['cache-control']).toBe('no-cache');
    const again = await app.inject({
      url: '/console/',
      headers: { 'if-none-match': String(page.headers['etag']) },
    });
    expect(again.statusCode).toBe(304);
    // a view of the single-page app is the same page
    expect((await app.inject({ url: '/console/activity' })).body).toBe(page.body);
  });

  it('caches hashed assets for a year and gzips them for clients that accept it', async () => {
    const plain = await app.inject({ url: '/console/assets/app-1a2b.js' });
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.body).toBe(script);
    const zipped = await app.inject({
      url: '/console/assets/app-1a2b.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(script);
  });

  it('answers 404 for anything that is not a console file', async () => {
    for (const url of [
      '/console/assets/app-1a2b.js.map',
      '/console/secret.env',
      '/console/../package.json',
      '/console/%2e%2e/%2e%2e/etc/passwd.txt',
      '/console/nope.js',
    ]) {
      const response = await app.inject({ url });
      if (response.statusCode === 200) expect(response.body).toContain('<title>Quarry</title>');
      else expect(response.statusCode).toBe(404);
    }
    expect((await app.inject({ url: '/console/secret.env' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/console/nope.js' })).json()).toEqual({
      success: false,
      error: 'Not Found',
      code: 'NOT_FOUND',
    });
  });

  it('serves nothing when CONSOLE_ENABLED=false', async () => {
    const off = Fastify();
    await sut(off, { config: testConfig({ CONSOLE_ENABLED: 'false' }), logger }, dir);
    expect((await off.inject({ url: '/console/' })).statusCode).toBe(404);
    await off.close();
  });
});
