import { constants, createGzip, gzipSync } from 'node:zlib';

import {
  brotliBomb,
  type FixtureServer,
  gzipBomb,
  startFixtureServer,
  withRssSampling,
  zlibBomb,
  zstdBomb,
} from '@quarry/testing';

import { AddressPolicy } from './address-policy';
import { GuardedHttpClient } from './guarded-http-client';
import { ResponseTooLargeError, UnsupportedContentEncodingError } from './outbound-errors';

const GIB = 1024 ** 3;
const LIMIT = 1024 * 1024;

/** Compression bombs on every encoding, served by a real server on 127.0.0.1. */
describe('GuardedHttpClient against compression bombs', () => {
  let site: FixtureServer;
  let bodies: Record<string, Buffer>;

  beforeAll(async () => {
    bodies = {
      gzip: gzipBomb(GIB),
      deflate: zlibBomb(GIB),
      br: await brotliBomb(GIB),
      zstd: zstdBomb(GIB),
    };
    const serve =
      (encoding: string, body: () => Buffer) =>
      (_request: unknown, response: import('node:http').ServerResponse) =>
        void response
          .writeHead(200, { 'content-type': 'text/html', 'content-encoding': encoding })
          .end(body());
    site = await startFixtureServer({
      '/gzip': serve('gzip', () => bodies['gzip']),
      '/x-gzip': serve('x-gzip', () => bodies['gzip']),
      '/deflate': serve('deflate', () => bodies['deflate']),
      '/br': serve('br', () => bodies['br']),
      '/zstd': serve('zstd', () => bodies['zstd']),
      // a gzip of the gzip bomb, labelled as two layers
      '/gzip-gzip': serve('gzip, gzip', () => gzipSync(bodies['gzip'])),
      '/br-in-gzip': serve('br, gzip', () => gzipSync(bodies['br'])),
      // endless empty gzip members: nothing decodes, the encoded bytes must still be bounded
      '/endless': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        const member = gzipSync(Buffer.alloc(0));
        const pump = () => {
          while (
            !response.destroyed &&
            response.write(Buffer.concat(Array.from({ length: 1_000 }, () => member)))
          ) {
            /* keep writing */
          }
          if (!response.destroyed) response.once('drain', pump);
        };
        response.on('close', () => undefined);
        pump();
      },
      '/small-gzip': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        const encoder = createGzip({ level: constants.Z_BEST_SPEED });
        encoder.pipe(response);
        encoder.end('<html><body><p>a small compressed page</p></body></html>');
      },
    });
  }, 60_000);
  afterAll(() => site?.close());

  const client = () => new GuardedHttpClient(new AddressPolicy(true), { userAgent: 'test', maxBytes: LIMIT });

  it.each(['gzip', 'x-gzip', 'deflate', 'br'])(
    'stops decoding %s at the limit, with memory bounded',
    async (path) => {
      const sut = client();
      const started = Date.now();
      const { outcome: result, growth } = await withRssSampling(() =>
        sut.fetch({ url: `${site.url}/${path}`, timeoutMs: 30_000 }),
      );
      expect(result.status).toBe('rejected');
      const error = (result as PromiseRejectedResult).reason as ResponseTooLargeError;
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error.message).toMatch(
        new RegExp(`exceeds the limit of ${LIMIT} bytes once decoded \\(Content-Encoding: ${path}\\)`),
      );
      expect(growth).toBeLessThan(100 * 1024 * 1024);
      expect(Date.now() - started).toBeLessThan(10_000);
      await sut.close();
    },
  );

  it('decodes stacked encodings layer by layer, each bounded', async () => {
    const sut = client();
    for (const path of ['gzip-gzip', 'br-in-gzip']) {
      const { outcome: result, growth } = await withRssSampling(() =>
        sut.fetch({ url: `${site.url}/${path}`, timeoutMs: 30_000 }),
      );
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(ResponseTooLargeError);
      expect(growth).toBeLessThan(100 * 1024 * 1024);
    }
    await sut.close();
  });

  it('refuses zstd, which it does not offer and cannot decode, instead of passing the compressed bytes on', async () => {
    const sut = client();
    await expect(sut.fetch({ url: `${site.url}/zstd`, timeoutMs: 30_000 })).rejects.toBeInstanceOf(
      UnsupportedContentEncodingError,
    );
    await sut.close();
  });

  it('bounds the encoded bytes too: endless empty gzip members stop at the limit, not at the timeout', async () => {
    const sut = client();
    const started = Date.now();
    await expect(sut.fetch({ url: `${site.url}/endless`, timeoutMs: 30_000 })).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    await sut.close();
  });

  it('still decodes ordinary compressed pages', async () => {
    const sut = client();
    const response = await sut.fetch({ url: `${site.url}/small-gzip`, timeoutMs: 5_000 });
    expect(response.body.toString()).toContain('a small compressed page');
    await sut.close();
  });
});
