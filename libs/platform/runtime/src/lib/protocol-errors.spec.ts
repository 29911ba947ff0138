import { Body, Controller, Delete, Get, Module, Param, Post } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';

import { errorBodySchema } from '@quarry/contracts';
import { PlatformMetrics } from '@quarry/platform/observability';
import { rawHttpExchange as exchange } from '@quarry/testing';

import { createHttpApp } from './create-http-app';
import { RouteMethods } from './protocol-errors';

@Controller('v2')
class ProbeController {
  @Post('scrape')
  scrape() {
    return { success: true };
  }

  @Post('echo')
  echo(@Body() body: unknown) {
    return { success: true, body };
  }

  @Get('crawl/:jobId')
  status(@Param('jobId') jobId: string) {
    return { success: true, id: jobId };
  }

  @Delete('crawl/:jobId')
  cancel() {
    return { status: 'cancelled' };
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe('protocol errors in the spec shape', () => {
  let app: NestFastifyApplication;
  let port: number;

  beforeAll(async () => {
    app = await createHttpApp(ProbeModule, {
      logger: pino({ level: 'silent' }),
      metrics: new PlatformMetrics({ service: 'test', defaultMetrics: false }),
      bodyLimitBytes: 1_000_000,
    });
    await app.listen(0, '127.0.0.1');
    port = Number(new URL(await app.getUrl()).port);
  });
  afterAll(() => app?.close());

  const expectSpecError = (body: unknown, error: string) => {
    expect(errorBodySchema.parse(body)).toMatchObject({ success: false, error });
  };

  it('answers a request whose headers exceed the parser limit with 431 in the spec shape', async () => {
    const response = await exchange(
      port,
      `GET /v2/crawl/abc HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(60_000)}\r\nConnection: close\r\n\r\n`,
    );
    expect(response.status).toBe(431);
    expectSpecError(response.body, 'Request Header Fields Too Large');
  });

  it('answers 405 with Allow for a method a known path does not serve, any method the parser knows', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND']) {
      const response = await exchange(
        port,
        `${method} /v2/scrape HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      expect(response.status).toBe(405);
      expect(response.headers['allow']).toBe('POST');
      expectSpecError(response.body, 'Method Not Allowed');
    }
    const withParams = await exchange(
      port,
      'POST /v2/crawl/abc?x=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
    );
    expect(withParams.status).toBe(405);
    expect(withParams.headers['allow']).toBe('DELETE, GET, HEAD');
  });

  it('answers 405 with Allow for methods Node does not parse at all on known paths, 404 elsewhere', async () => {
    const known = await exchange(port, 'FOO /v2/scrape HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(known.status).toBe(405);
    expect(known.headers['allow']).toBe('POST');
    expectSpecError(known.body, 'Method Not Allowed');
    const unknown = await exchange(
      port,
      'FOO /v2/nothing-here HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(unknown.status).toBe(404);
    expectSpecError(unknown.body, 'Not Found');
  });

  it('keeps 404 for unknown paths and serves the routes themselves', async () => {
    const missing = await exchange(
      port,
      'GET /v2/nothing-here HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(missing.status).toBe(404);
    expectSpecError(missing.body, 'Not Found');
    const ok = await exchange(port, 'DELETE /v2/crawl/abc HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(ok).toMatchObject({ status: 200, body: { status: 'cancelled' } });
  });

  const postJson = (text: string) =>
    exchange(
      port,
      `POST /v2/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );

  it('refuses U+0000 in any string or key of a JSON body with 400 BAD_REQUEST naming where (PostgreSQL cannot store it)', async () => {
    const message = 'Strings in the request body may not contain the NUL character (\\u0000)';
    const inValue = await postJson('{"query":"ok","sources":[{"type":"web","tbs":"a\\u0000b"}]}');
    expect(inValue.status).toBe(400);
    expectSpecError(inValue.body, message);
    expect(inValue.body).toMatchObject({
      code: 'BAD_REQUEST',
      details: [{ code: 'invalid_string', path: ['sources', 0, 'tbs'], message }],
    });
    const inKey = await postJson('{"metadata":{"a\\u0000":1}}');
    expect(inKey.status).toBe(400);
    expect(inKey.body).toMatchObject({ details: [{ path: ['metadata', 'a\u0000'] }] });
    // An escaped backslash followed by "u0000" is six ordinary characters.
    const literal = await postJson('{"query":"\\\\u0000"}');
    expect(literal).toMatchObject({ status: 201, body: { body: { query: '\\u0000' } } });
    // Deeper than the call stack: still a 400, with the first levels of the path.
    const depth = 200_000;
    const deep = await postJson(`${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`);
    expect(deep.status).toBe(400);
    expect((deep.body as { details: { path: unknown[] }[] }).details[0].path).toEqual(new Array(64).fill(0));
  });

  it('answers a malformed request line with 400 in the spec shape', async () => {
    const response = await exchange(port, 'GET /v2/scrape HTTP/1.1\r\nHost x\r\n\r\n');
    expect(response.status).toBe(400);
    expectSpecError(response.body, 'Bad Request');
  });
});

describe('RouteMethods', () => {
  it('matches parameters and wildcards, and ignores the query string', () => {
    const sut = new RouteMethods();
    sut.add('/v2/agent/:jobId/snapshots/:snapshotId', 'GET');
    sut.add('/v2/parse/upload/:uploadId', ['PUT', 'post']);
    sut.add('/files/*', 'GET');
    expect(sut.allowed('/v2/agent/1/snapshots/2?x=y')).toEqual(['GET']);
    expect(sut.allowed('/v2/parse/upload/abc')).toEqual(['POST', 'PUT']);
    expect(sut.allowed('/files/a/b.txt')).toEqual(['GET']);
    expect(sut.allowed('/v2/agent/1/snapshots')).toEqual([]);
    expect(sut.allowed('/v2/parse/upload/a.b')).toEqual(['POST', 'PUT']);
  });
});
