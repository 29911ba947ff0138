import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { type Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

import { Agent, type Dispatcher, ProxyAgent, request } from 'undici';

import { AddressPolicy } from './address-policy';
import {
  BlockedAddressError,
  DnsResolutionError,
  OutboundTimeoutError,
  ResponseTooLargeError,
  TooManyRedirectsError,
  UnsupportedContentEncodingError,
} from './outbound-errors';

export interface OutboundRequest {
  url: string;
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  /** Default true, as the API's `skipTlsVerification`. */
  skipTlsVerification?: boolean;
  maxBytes?: number;
  maxRedirects?: number;
  signal?: AbortSignal;
  /** Proxy URL to send the request through (the target is still checked against the address policy). */
  proxyUrl?: string;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** URL of the last response after redirects. */
  url: string;
  redirects: string[];
  contentType?: string;
}

export type HostLookup = (hostname: string) => Promise<LookupAddress[]>;

const systemLookup: HostLookup = (hostname) => {
  // RFC 6761 section 6.3: names under `.localhost` are loopback even without a resolver entry (like browsers do).
  if (/\.localhost\.?$/i.test(hostname)) return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
  return new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );
};

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * The one way the platform talks to the outside: every connection (first request, each redirect hop,
 * every proxy target) is checked against the address policy after DNS resolution, bodies are bounded,
 * timeouts cover the whole exchange.
 */
export class GuardedHttpClient {
  private readonly strictAgent: Agent;
  private readonly lenientAgent: Agent;
  private readonly proxies = new Map<string, ProxyAgent>();

  constructor(
    readonly policy: AddressPolicy,
    private readonly defaults: { userAgent: string; maxBytes: number },
    private readonly lookupHost: HostLookup = systemLookup,
  ) {
    const lookup = this.guardedLookup();
    const common = { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 30_000, connections: 64, pipelining: 1 };
    this.strictAgent = new Agent({ ...common, connect: { lookup, rejectUnauthorized: true } });
    this.lenientAgent = new Agent({ ...common, connect: { lookup, rejectUnauthorized: false } });
  }

  /** Resolves the host of `url` and throws BlockedAddressError when the policy refuses it. */
  async assertAllowed(url: string): Promise<void> {
    const { hostname } = new URL(url);
    const host = hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      if (!this.policy.allows(host)) throw new BlockedAddressError(url, host);
      return;
    }
    let addresses: LookupAddress[];
    try {
      addresses = await this.lookupHost(host);
    } catch (error) {
      throw new DnsResolutionError(host, error);
    }
    if (addresses.length === 0) throw new DnsResolutionError(host);
    const refused = addresses.find((entry) => !this.policy.allows(entry.address));
    if (refused) throw new BlockedAddressError(url, refused.address);
  }

  async fetch(input: OutboundRequest): Promise<OutboundResponse> {
    const maxBytes = input.maxBytes ?? this.defaults.maxBytes;
    const maxRedirects = input.maxRedirects ?? 10;
    const deadline = AbortSignal.timeout(input.timeoutMs);
    const signal = input.signal ? AbortSignal.any([input.signal, deadline]) : deadline;
    const redirects: string[] = [];
    let url = input.url;
    let method = input.method ?? 'GET';
    let body = input.body;
    try {
      for (;;) {
        await this.assertAllowed(url);
        const response = await request(url, {
          method,
          body,
          signal,
          dispatcher: this.dispatcherFor(input),
          headers: {
            'user-agent': this.defaults.userAgent,
            accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
            'accept-encoding': 'gzip, deflate, br',
            ...lowerCaseKeys(input.headers),
          },
        });
        const location = headerValue(response.headers['location']);
        if (REDIRECT_STATUSES.has(response.statusCode) && location) {
          response.body.resume();
          if (redirects.length >= maxRedirects) throw new TooManyRedirectsError(input.url);
          redirects.push(url);
          url = new URL(location, url).toString();
          if (
            response.statusCode === 303 ||
            ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')
          ) {
            method = 'GET';
            body = undefined;
          }
          continue;
        }
        const headers = flattenHeaders(response.headers);
        const buffer = method === 'HEAD' ? Buffer.alloc(0) : await readBody(response, maxBytes);
        return {
          status: response.statusCode,
          headers,
          body: buffer,
          url,
          redirects,
          contentType: headers['content-type'],
        };
      }
    } catch (error) {
      if (deadline.aborted && !input.signal?.aborted) throw new OutboundTimeoutError(input.timeoutMs);
      throw error;
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([
      this.strictAgent.close(),
      this.lenientAgent.close(),
      ...[...this.proxies.values()].map((proxy) => proxy.close()),
    ]);
  }

  private dispatcherFor(input: OutboundRequest): Dispatcher {
    const skipTls = input.skipTlsVerification ?? true;
    if (!input.proxyUrl) return skipTls ? this.lenientAgent : this.strictAgent;
    const key = `${input.proxyUrl}|${skipTls}`;
    let proxy = this.proxies.get(key);
    if (!proxy) {
      proxy = new ProxyAgent({ uri: input.proxyUrl, requestTls: { rejectUnauthorized: !skipTls } });
      this.proxies.set(key, proxy);
    }
    return proxy;
  }

  /** DNS lookup used by the sockets themselves: refuses private answers (defeats DNS rebinding between check and connect). */
  private guardedLookup(): LookupFunction {
    return (hostname, options, callback) => {
      this.lookupHost(hostname).then(
        (addresses) => {
          const family = typeof options === 'object' && options ? options.family : undefined;
          const candidates = addresses.filter((entry) => !family || entry.family === family);
          const refused = candidates.find((entry) => !this.policy.allows(entry.address));
          if (refused) return callback(new BlockedAddressError(`//${hostname}`, refused.address), '', 0);
          if (candidates.length === 0) return callback(new DnsResolutionError(hostname), '', 0);
          if (typeof options === 'object' && options?.all)
            return callback(null, candidates as unknown as string, 0);
          return callback(null, candidates[0].address, candidates[0].family);
        },
        (error: unknown) => callback(new DnsResolutionError(hostname, error), '', 0),
      );
    };
  }
}

function lowerCaseKeys(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([key, value]) => [key.toLowerCase(), value]));
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Content codings this client offers (`Accept-Encoding`) and decodes, each as a bounded stream. */
const DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  deflate: () => createInflate(),
  br: () => createBrotliDecompress(),
};
/** Codings that are compression this client does not decode: refused rather than passed on as if they were the page. */
const UNDECODED = new Set(['zstd', 'compress', 'x-compress', 'exi', 'pack200-gzip', 'aes128gcm']);

/**
 * Reads a response body of at most `maxBytes`: refuses a larger declared length and codings it does
 * not decode, then reads it through `readBounded`.
 */
async function readBody(response: Dispatcher.ResponseData, maxBytes: number): Promise<Buffer> {
  const declared = Number(headerValue(response.headers['content-length']));
  const codings = (headerValue(response.headers['content-encoding']) ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding && coding !== 'identity');
  if (Number.isFinite(declared) && declared > maxBytes) {
    discard(response.body);
    throw new ResponseTooLargeError(maxBytes);
  }
  const refused = codings.find((coding) => UNDECODED.has(coding));
  if (refused) {
    discard(response.body);
    throw new UnsupportedContentEncodingError(refused);
  }
  // An unknown token (servers send `utf-8`, `none`…) is no compression we know of: the body as sent.
  return readBounded(response.body, codings.every((coding) => coding in DECODERS) ? codings : [], maxBytes);
}

/**
 * Reads `source` undoing `codings` (as listed in Content-Encoding: applied in that order, so undone in
 * reverse), at most `maxBytes`: counted after decoding, while decoding (a declared size is never
 * trusted), and before it too (so a stream of empty gzip members cannot run until the timeout). Every
 * stage is a stream, so memory stays near the limit whatever the body expands to. A corrupt
 * compressed body keeps what decoded before the damage.
 */
export async function readBounded(
  source: Readable,
  codings: readonly string[],
  maxBytes: number,
): Promise<Buffer> {
  const decoders = [...codings].reverse().map((coding) => {
    const decoder = DECODERS[coding];
    if (!decoder) throw new UnsupportedContentEncodingError(coding);
    return decoder();
  });
  let encoded = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      encoded += chunk.length;
      if (encoded > maxBytes) done(new ResponseTooLargeError(maxBytes));
      else done(null, chunk);
    },
  });
  const stages: Readable[] = [source, counter, ...decoders];
  for (let index = 1; index < stages.length; index += 1) {
    const stage = stages[index] as Transform;
    stages[index - 1].pipe(stage);
    // An error of any stage ends the read (the iteration below sees it on the last stage).
    stages[index - 1].on('error', (error: Error) => stage.destroy(error));
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stages[stages.length - 1]) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      total += buffer.length;
      if (total > maxBytes)
        throw new ResponseTooLargeError(maxBytes, decoders.length ? codings.join(', ') : undefined);
      chunks.push(buffer);
    }
  } catch (error) {
    if (error instanceof ResponseTooLargeError) throw error;
    if (decoders.length && chunks.length > 0) return Buffer.concat(chunks);
    throw error;
  } finally {
    for (const stage of stages) if (!stage.destroyed) discard(stage);
  }
  return Buffer.concat(chunks);
}

/** Drops a body unread (its abort error has nowhere to go). */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}
