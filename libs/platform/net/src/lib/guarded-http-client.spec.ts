import { gzipSync } from 'node:zlib';

import { type FixtureServer, html, startFixtureServer } from '@quarry/testing';

import { AddressPolicy } from './address-policy';
import { GuardedHttpClient, type HostLookup } from './guarded-http-client';
import {
  BlockedAddressError,
  DnsResolutionError,
  OutboundTimeoutError,
  ResponseTooLargeError,
} from './outbound-errors';

describe('GuardedHttpClient', () => {
  let site: FixtureServer;
  let other: FixtureServer;

  beforeAll(async () => {
    other = await startFixtureServer({ '/secret': html('<p>internal</p>') }, '127.0.0.2');
    site = await startFixtureServer({
      '/page': html('<p>hello</p>'),
      '/redirect': (_req, res) => res.writeHead(302, { location: '/page' }).end(),
      '/to-private': (_req, res) => res.writeHead(301, { location: `${other.url}/secret` }).end(),
      '/to-name': (_req, res) =>
        res.writeHead(302, { location: `http://internal.test:${other.port}/secret` }).end(),
      '/gzip': (_req, res) =>
        res
          .writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' })
          .end(gzipSync('compressed body')),
      '/big': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(5_000)),
      '/slow': (_req, res) => void setTimeout(() => res.end('late'), 2_000),
      '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
    });
  });
  afterAll(async () => {
    await site.close();
    await other.close();
  });

  const fixtureOnly = () => new AddressPolicy(false, ['127.0.0.1']);
  const lookup: HostLookup = async (hostname) => {
    if (hostname === 'internal.test') return [{ address: '127.0.0.2', family: 4 }];
    if (hostname === 'public.test') return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
  };
  const client = (policy = fixtureOnly(), maxBytes = 1_000_000) =>
    new GuardedHttpClient(policy, { userAgent: 'test', maxBytes }, lookup);

  it('resolves names under .localhost to loopback (RFC 6761) and still applies the policy to them', async () => {
    const system = (policy: AddressPolicy) =>
      new GuardedHttpClient(policy, { userAgent: 'test', maxBytes: 1_000_000 });
    const response = await system(fixtureOnly()).fetch({
      url: `http://sub.localhost:${site.port}/page`,
      timeoutMs: 5_000,
    });
    expect(response.status).toBe(200);
    await expect(
      system(new AddressPolicy(false)).fetch({
        url: `http://sub.localhost:${site.port}/page`,
        timeoutMs: 5_000,
      }),
    ).rejects.toBeInstanceOf(BlockedAddressError);
  });

  it('fetches a page and reports the final URL after redirects', async () => {
    const sut = client();
    const response = await sut.fetch({ url: `${site.url}/redirect`, timeoutMs: 5_000 });
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${site.url}/page`);
    expect(response.redirects).toEqual([`${site.url}/redirect`]);
    expect(response.body.toString()).toContain('hello');
    await sut.close();
  });

  it('refuses a private target', async () => {
    const sut = client();
    await expect(sut.fetch({ url: `${other.url}/secret`, timeoutMs: 5_000 })).rejects.toBeInstanceOf(
      BlockedAddressError,
    );
    await sut.close();
  });

  it('refuses IPv6 literals that carry a private IPv4 address (mapped, compatible, SIIT, NAT64, 6to4)', async () => {
    const sut = client(new AddressPolicy(false));
    for (const host of [
      '[::127.0.0.1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:0:7f00:1]',
      '[64:ff9b::7f00:1]',
      '[2002:7f00:1::]',
      '[::a9fe:a9fe]',
    ])
      await expect(
        sut.fetch({ url: `http://${host}:${site.port}/v6-probe`, timeoutMs: 5_000 }),
      ).rejects.toBeInstanceOf(BlockedAddressError);
    expect(site.hits.get('/v6-probe')).toBeUndefined();
    await sut.close();
  });

  it('refuses a redirect to a private address, by IP or by name', async () => {
    const sut = client();
    await expect(sut.fetch({ url: `${site.url}/to-private`, timeoutMs: 5_000 })).rejects.toBeInstanceOf(
      BlockedAddressError,
    );
    await expect(sut.fetch({ url: `${site.url}/to-name`, timeoutMs: 5_000 })).rejects.toBeInstanceOf(
      BlockedAddressError,
    );
    expect(other.hits.get('/secret')).toBeUndefined();
    await sut.close();
  });

  it('resolves names through the guarded lookup', async () => {
    const sut = client();
    const response = await sut.fetch({ url: `http://public.test:${site.port}/page`, timeoutMs: 5_000 });
    expect(response.status).toBe(200);
    await expect(
      sut.fetch({ url: `http://nowhere.test:${site.port}/`, timeoutMs: 5_000 }),
    ).rejects.toBeInstanceOf(DnsResolutionError);
    await sut.close();
  });

  it('decompresses gzip bodies', async () => {
    const sut = client();
    const response = await sut.fetch({ url: `${site.url}/gzip`, timeoutMs: 5_000 });
    expect(response.body.toString()).toBe('compressed body');
    await sut.close();
  });

  it('bounds the body size, the time and the redirects', async () => {
    const sut = client(fixtureOnly(), 1_000);
    await expect(sut.fetch({ url: `${site.url}/big`, timeoutMs: 5_000 })).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
    await expect(sut.fetch({ url: `${site.url}/slow`, timeoutMs: 300 })).rejects.toBeInstanceOf(
      OutboundTimeoutError,
    );
    await expect(sut.fetch({ url: `${site.url}/loop`, timeoutMs: 5_000, maxRedirects: 3 })).rejects.toThrow(
      /Too many redirects/,
    );
    await sut.close();
  });

  it('reaches private targets when private networks are allowed', async () => {
    const sut = client(new AddressPolicy(true));
    const response = await sut.fetch({ url: `${other.url}/secret`, timeoutMs: 5_000 });
    expect(response.body.toString()).toContain('internal');
    await sut.close();
  });
});
