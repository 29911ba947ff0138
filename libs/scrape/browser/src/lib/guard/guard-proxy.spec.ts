import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

import { AddressPolicy } from '@quarry/platform/net';
import {
  type FixtureServer,
  html,
  startFixtureServer,
  startForwardProxy,
  startHttpsFixtureServer,
} from '@quarry/testing';

import { GuardProxy, parseAuthority } from './guard-proxy';
import { type HostLookup, HostResolver } from './host-resolver';

/** 127.0.0.1 is "public" for these tests; 127.0.0.2 is private. */
const policy = new AddressPolicy(false, ['127.0.0.1']);
const lookup: HostLookup = async (host) => {
  if (host === 'public.test') return [{ address: '127.0.0.1', family: 4 }];
  if (host === 'rebind.test') return [{ address: '127.0.0.2', family: 4 }];
  if (host === 'mixed.test')
    return [
      { address: '127.0.0.1', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
  throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
};

function get(proxy: GuardProxy, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(proxy.url);
    const request = httpRequest(
      { host: '127.0.0.1', port, path: url, headers: { host: new URL(url).host } },
      (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        response.on('error', () => reject(new Error('connection cut')));
        response.on('close', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

function tunnel(proxy: GuardProxy, authority: string): Promise<{ status: number; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(proxy.url);
    const request = httpRequest({ host: '127.0.0.1', port, method: 'CONNECT', path: authority });
    request.on('connect', (response, socket) => resolve({ status: response.statusCode ?? 0, socket }));
    request.on('error', reject);
    request.end();
  });
}

describe('GuardProxy', () => {
  let publicSite: FixtureServer;
  let privateSite: FixtureServer;
  let sut: GuardProxy;

  beforeAll(async () => {
    publicSite = await startFixtureServer({
      '/': html('<p>public page</p>'),
      '/big': (_q, r) => r.end(Buffer.alloc(200_000, 1)),
    });
    privateSite = await startFixtureServer({ '*': html('<p>secret</p>') }, '127.0.0.2');
  });
  afterAll(async () => {
    await publicSite.close();
    await privateSite.close();
  });
  beforeEach(async () => {
    sut = await GuardProxy.start({ resolver: new HostResolver(policy, lookup), maxTransferBytes: 100_000 });
  });
  afterEach(() => sut.close());

  it('forwards plain HTTP to allowed targets and refuses private ones', async () => {
    await expect(get(sut, `${publicSite.url}/`)).resolves.toMatchObject({
      status: 200,
      body: '<p>public page</p>',
    });
    await expect(get(sut, `${privateSite.url}/`)).resolves.toMatchObject({ status: 403 });
    expect(privateSite.hits.size).toBe(0);
    expect(sut.events).toEqual([expect.objectContaining({ kind: 'blocked', address: '127.0.0.2' })]);
  });

  it('classifies IPv6 literals by the IPv4 address they carry, as the guarded client does', async () => {
    for (const host of [
      '[::127.0.0.2]',
      '[::ffff:0:7f00:2]',
      '[64:ff9b::7f00:2]',
      '[2002:7f00:2::]',
      '[::ffff:127.0.0.2]',
    ])
      await expect(get(sut, `http://${host}:${privateSite.port}/`)).resolves.toMatchObject({ status: 403 });
    const refused = await tunnel(sut, `[::127.0.0.2]:${privateSite.port}`);
    expect(refused.status).toBe(403);
    refused.socket.destroy();
    expect(sut.events.map((event) => event.kind)).toEqual([
      'blocked',
      'blocked',
      'blocked',
      'blocked',
      'blocked',
      'blocked',
    ]);
    expect(privateSite.hits.size).toBe(0);
  });

  it('connects to the address it checked, so a rebinding or mixed DNS answer cannot reach a private host', async () => {
    await expect(get(sut, `http://rebind.test:${privateSite.port}/`)).resolves.toMatchObject({ status: 403 });
    await expect(get(sut, `http://mixed.test:${publicSite.port}/`)).resolves.toMatchObject({ status: 403 });
    await expect(get(sut, `http://public.test:${publicSite.port}/`)).resolves.toMatchObject({ status: 200 });
    await expect(get(sut, `http://nowhere.test/`)).resolves.toMatchObject({ status: 502 });
    expect(sut.events.map((event) => event.kind)).toEqual(['blocked', 'blocked', 'dns']);
    expect(privateSite.hits.size).toBe(0);
  });

  it('tunnels CONNECT to allowed targets only', async () => {
    const refused = await tunnel(sut, `127.0.0.2:${privateSite.port}`);
    expect(refused.status).toBe(403);
    refused.socket.destroy();
    const allowed = await tunnel(sut, `127.0.0.1:${publicSite.port}`);
    expect(allowed.status).toBe(200);
    const reply = await new Promise<string>((resolve) => {
      let text = '';
      allowed.socket.on('data', (chunk) => (text += chunk));
      allowed.socket.on('end', () => resolve(text));
      allowed.socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    });
    expect(reply).toContain('public page');
  });

  it('verifies certificates before tunnelling TLS when asked to', async () => {
    const https = await startHttpsFixtureServer('<p>tls page</p>');
    try {
      sut.route = { verifyTls: true };
      const { socket } = await tunnel(sut, `127.0.0.1:${https.port}`);
      const outcome = await new Promise<string>((resolve) => {
        const secure = tlsConnect({ socket, servername: 'localhost', rejectUnauthorized: false });
        secure.on('secureConnect', () => resolve('connected'));
        secure.on('error', () => resolve('refused'));
        secure.on('close', () => resolve('refused'));
      });
      expect(outcome).toBe('refused');
      expect(sut.events).toEqual([
        expect.objectContaining({ kind: 'tls', detail: expect.stringMatching(/SELF_SIGNED|self-signed/i) }),
      ]);
      expect(https.hits).toBe(0);

      sut.route = { verifyTls: false };
      const again = await tunnel(sut, `127.0.0.1:${https.port}`);
      const connected = await new Promise<string>((resolve) => {
        const secure = tlsConnect({
          socket: again.socket,
          servername: 'localhost',
          rejectUnauthorized: false,
        });
        secure.on('secureConnect', () => {
          resolve('connected');
          secure.destroy();
        });
        secure.on('error', () => resolve('refused'));
      });
      expect(connected).toBe('connected');
    } finally {
      await https.close();
    }
  });

  it('chains through an upstream proxy after checking the target', async () => {
    const upstream = await startForwardProxy();
    try {
      sut.route = { verifyTls: false, upstream: upstream.url };
      await expect(get(sut, `${publicSite.url}/`)).resolves.toMatchObject({
        status: 200,
        body: '<p>public page</p>',
      });
      await expect(get(sut, `${privateSite.url}/`)).resolves.toMatchObject({ status: 403 });
      expect(upstream.requests).toEqual([`${publicSite.url}/`]);
    } finally {
      await upstream.close();
    }
  });

  it('tunnels CONNECT through the upstream proxy too, and reports a refusing upstream', async () => {
    const upstream = await startForwardProxy();
    const refusing = await startForwardProxy({ refuse: true });
    try {
      sut.route = { verifyTls: false, upstream: upstream.url };
      const { status, socket } = await tunnel(sut, `127.0.0.1:${publicSite.port}`);
      expect(status).toBe(200);
      const reply = await new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (chunk) => (text += chunk));
        socket.on('end', () => resolve(text));
        socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      });
      expect(reply).toContain('public page');
      expect(upstream.requests).toEqual([`127.0.0.1:${publicSite.port}`]);

      sut.route = { verifyTls: false, upstream: refusing.url };
      const refused = await tunnel(sut, `127.0.0.1:${publicSite.port}`);
      await new Promise((resolve) => {
        refused.socket.on('close', resolve);
        refused.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      });
      expect(sut.events).toEqual([
        expect.objectContaining({ kind: 'upstream', detail: expect.stringContaining('403') }),
      ]);
    } finally {
      await upstream.close();
      await refusing.close();
    }
  });

  it('cuts every connection once the page exceeds its byte budget', async () => {
    await get(sut, `${publicSite.url}/big`).catch(() => undefined);
    expect(sut.events.some((event) => event.kind === 'budget')).toBe(true);
    expect(sut.bytesTransferred).toBeGreaterThan(100_000);
  });

  it('parses CONNECT authorities', () => {
    expect(parseAuthority('example.com:443')).toEqual({ host: 'example.com', port: 443 });
    expect(parseAuthority('[::1]:8443')).toEqual({ host: '::1', port: 8443 });
    expect(parseAuthority('example.com')).toBeUndefined();
    expect(parseAuthority('example.com:99999')).toBeUndefined();
  });

  it('closes its own sockets', async () => {
    const socket = connect(Number(new URL(sut.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await sut.close();
    await closed;
    sut = await GuardProxy.start({ resolver: new HostResolver(policy, lookup), maxTransferBytes: 100_000 });
  });
});
