import { readdirSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { crc32, deflateSync, gzipSync } from 'node:zlib';

import {
  brotliBomb,
  type FixtureHandler,
  type FixtureServer,
  gzipBomb,
  html,
  startFixtureServer,
  zlibBomb,
  zstdBomb,
} from '@quarry/testing';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** Resident memory (MiB) of a process and all its descendants (worker processes, Chromium), from /proc. */
export function treeRssMib(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // the command name (2nd field) may hold spaces and parentheses: ppid follows the last ')'
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // exited meanwhile
    }
  }
  let kib = 0;
  const pending = [root];
  while (pending.length) {
    const pid = pending.pop() as number;
    try {
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // exited meanwhile
    }
    pending.push(...(children.get(pid) ?? []));
  }
  return kib / 1024;
}

/** Samples treeRssMib(pid) every `everyMs` while `work` runs: the outcome, the peak and the time taken. */
export async function withTreeRss<T>(
  pid: number,
  work: () => Promise<T>,
  everyMs = 100,
): Promise<{ outcome: PromiseSettledResult<T>; peakMib: number; ms: number }> {
  let peak = treeRssMib(pid);
  const timer = setInterval(() => (peak = Math.max(peak, treeRssMib(pid))), everyMs);
  const started = Date.now();
  const [outcome] = await Promise.allSettled([work()]);
  clearInterval(timer);
  peak = Math.max(peak, treeRssMib(pid));
  return { outcome, peakMib: peak, ms: Date.now() - started };
}

/**
 * Runs `work` while asking `${url}/livez` every `everyMs`: the longest answer is how long the server's
 * event loop was held (a request waits for it). A probe still waiting when `work` ends counts too.
 */
export async function withLoopLatency<T>(
  url: string,
  work: () => Promise<T>,
  everyMs = 200,
): Promise<{ result: T; loopMaxMs: number }> {
  let loopMaxMs = 0;
  let running = true;
  const probe = (async () => {
    while (running) {
      const started = Date.now();
      await fetch(`${url}/livez`, { signal: AbortSignal.timeout(120_000) }).then(
        (response) => response.arrayBuffer(),
        () => undefined,
      );
      loopMaxMs = Math.max(loopMaxMs, Date.now() - started);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  try {
    const result = await work();
    running = false;
    await probe;
    return { result, loopMaxMs };
  } finally {
    running = false;
  }
}

/** A PNG whose header declares `width` × `height` pixels over a few bytes of image data. */
export function absurdPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    // a few rows' worth of zeros: the decoder runs out of data long before the declared size
    chunk('IDAT', deflateSync(Buffer.alloc(4096))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The classic "billion laughs": ten levels of ten entity references (10⁹ "lol"s once expanded). */
export function billionLaughs(root: 'svg' | 'doc'): string {
  const entities = ['<!ENTITY lol "lol">'];
  for (let level = 1; level <= 9; level += 1) {
    const previous = level === 1 ? 'lol' : `lol${level - 1}`;
    entities.push(`<!ENTITY lol${level} "${`&${previous};`.repeat(10)}">`);
  }
  const body =
    root === 'svg'
      ? '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><text x="0" y="20">&lol9;</text></svg>'
      : '<doc>&lol9;</doc>';
  return `<?xml version="1.0"?>\n<!DOCTYPE ${root} [\n${entities.join('\n')}\n]>\n${body}\n`;
}

export const NORMAL_MARKER = 'The quiet page of the hostile site, served at once.';

const page = (title: string, body: string, head = '') =>
  `<html><head><title>${title}</title>${head}</head><body><main><h1>${title}</h1>${body}</main></body></html>`;

/** 400,000 links (~14 MB). */
export function manyLinksPage(count = 400_000): string {
  const parts: string[] = [];
  for (let index = 0; index < count; index += 1) parts.push(`<a href="/l/${index}">link ${index}</a>\n`);
  return page('Links', parts.join(''));
}

/** 800,000 flat divs (~12 MB). */
export function manyDivsPage(count = 800_000): string {
  return page('Divs', '<div>ab</div>\n'.repeat(count));
}

/** `depth` nested divs around one paragraph. */
export function deepPage(depth: number): string {
  return page('Deep', `${'<div>'.repeat(depth)}<p>the bottom of the well</p>${'</div>'.repeat(depth)}`);
}

export interface HostileSite extends FixtureServer {
  /** The "private" server (127.0.0.2): any hit on it means a guard let a request through. */
  privateSite: FixtureServer;
}

const send =
  (contentType: string, body: Buffer | string, extra: Record<string, string> = {}): FixtureHandler =>
  (_request, response) =>
    void response.writeHead(200, { 'content-type': contentType, ...extra }).end(body);

/** Writes `chunk` every `everyMs` until the client goes away (never ends the body). */
function endless(response: ServerResponse, chunk: Buffer, everyMs: number): void {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.write('<html><body><main><h1>Endless</h1>');
  const timer = setInterval(() => {
    if (response.destroyed || response.writableEnded) return clearInterval(timer);
    response.write(chunk);
  }, everyMs);
  response.on('close', () => clearInterval(timer));
}

/**
 * The hostile site of the corpus on 127.0.0.1 (the one private address the server under test
 * allows), with a private twin on 127.0.0.2 it must never reach. Large bodies are built once.
 */
export async function startHostileSite(): Promise<HostileSite> {
  const privateSite = await startFixtureServer(
    { '*': html(page('Private', '<p>internal secret</p>')) },
    '127.0.0.2',
  );
  const secret = `${privateSite.url}/secret`;
  const bombs = {
    gzip: gzipBomb(GIB),
    deflate: zlibBomb(GIB),
    br: await brotliBomb(GIB),
    zstd: zstdBomb(GIB),
  };
  const links = Buffer.from(manyLinksPage());
  const divs = Buffer.from(manyDivsPage());
  const deep = Buffer.from(deepPage(100_000));
  const hugeAttribute = Buffer.from(
    page('Attribute', `<div data-x="${'a'.repeat(10 * MIB)}"><p>after the attribute</p></div>`),
  );
  const manyAttributes = Buffer.from(
    page(
      'Attributes',
      `<div ${Array.from({ length: 200_000 }, (_, index) => `a${index}="v"`).join(' ')}><p>after the attributes</p></div>`,
    ),
  );
  // The JavaScript-need check's tag patterns read from each `<div` to the one `>` (minutes).
  const sharedTagEnd = Buffer.from(
    page(
      'Openers',
      `<script src="/app.js"></script>${'<div '.repeat(100_000)}><p>after the openers</p></div>`,
    ),
  );
  // The empty-application-root pattern backtracked through every split of the comments (40: past 100 s).
  const rootComments = Buffer.from(
    `<html><body><script src="/app.js"></script><div id="root">${'<!-- c -->'.repeat(60)}<p>after the comments</p></div></body></html>`,
  );
  const manyFacts = Buffer.from(page('Weights', `<dl>${'<dt>Weight</dt><dd>5 kg</dd>'.repeat(90_000)}</dl>`));
  const distinctFacts = Buffer.from(
    page(
      'Weights',
      `<dl>${Array.from({ length: 90_000 }, (_, index) => `<dt>Weight ${index}</dt><dd>${index} g</dd>`).join('')}</dl>`,
    ),
  );
  const manyOffers = Buffer.from(
    `<html><body><main><div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Widget</h1>${Array.from(
      { length: 60_000 },
      (_, index) =>
        `<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">${index}.99</span><meta itemprop="priceCurrency" content="USD"></div>`,
    ).join('')}</div></main></body></html>`,
  );
  const hugeText = Buffer.from(page('Text', `<p>${'word '.repeat((20 * MIB) / 5)}</p>`));
  const hugeTitle = Buffer.from(
    `<html><head><title>${'T'.repeat(5 * MIB)}</title><meta name="description" content="${'d'.repeat(5 * MIB)}"></head><body><main><h1>Title</h1><p>a page with a giant title and description</p></main></body></html>`,
  );
  const bytes = (inside: number[]) =>
    Buffer.concat([
      Buffer.from(
        '<html><head><title>Broken bytes</title></head><body><main><h1>Broken bytes</h1><p>before ',
      ),
      Buffer.from(inside),
      Buffer.from(' after</p></main></body></html>'),
    ]);
  const invalidUtf8 = bytes([0xc3, 0x28, 0xe2, 0x82, 0x28, 0xf0, 0x90, 0x28, 0xbc, 0xc0, 0xaf]);
  const nulBytes = bytes([0x61, 0x00, 0x62, 0x00, 0x00, 0x63]);
  const binary = Buffer.alloc(2 * MIB);
  for (let index = 0; index < binary.length; index += 1) binary[index] = (index * 2654435761) >>> 24;
  const site = await startFixtureServer({
    '/ok': html(page('Quiet', `<p>${NORMAL_MARKER}</p>`)),
    '/links': send('text/html; charset=utf-8', links),
    '/divs': send('text/html; charset=utf-8', divs),
    '/deep': send('text/html; charset=utf-8', deep),
    '/huge-attribute': send('text/html; charset=utf-8', hugeAttribute),
    '/many-attributes': send('text/html; charset=utf-8', manyAttributes),
    '/shared-tag-end': send('text/html; charset=utf-8', sharedTagEnd),
    '/root-comments': send('text/html; charset=utf-8', rootComments),
    '/many-facts': send('text/html; charset=utf-8', manyFacts),
    '/many-distinct-facts': send('text/html; charset=utf-8', distinctFacts),
    '/many-offers': send('text/html; charset=utf-8', manyOffers),
    '/huge-text': send('text/html; charset=utf-8', hugeText),
    '/huge-title': send('text/html; charset=utf-8', hugeTitle),
    '/invalid-utf8': send('text/html; charset=utf-8', invalidUtf8),
    '/nul-bytes': send('text/html; charset=utf-8', nulBytes),
    '/empty': send('text/html; charset=utf-8', ''),
    '/binary-as-html': send('text/html', binary),
    '/svg-laughs': send('image/svg+xml', billionLaughs('svg')),
    '/xml-laughs': send('application/xml', billionLaughs('doc')),
    '/absurd.png': send('image/png', absurdPng(100_000, 100_000)),
    '/absurd-image-page': html(
      page('Image', `<p>An image of absurd size follows.</p><img src="/absurd.png" alt="absurd">`),
    ),
    '/gzip': send('text/html; charset=utf-8', bombs.gzip, { 'content-encoding': 'gzip' }),
    '/deflate': send('text/html; charset=utf-8', bombs.deflate, { 'content-encoding': 'deflate' }),
    '/br': send('text/html; charset=utf-8', bombs.br, { 'content-encoding': 'br' }),
    '/zstd': send('text/html; charset=utf-8', bombs.zstd, { 'content-encoding': 'zstd' }),
    '/gzip-gzip': send('text/html; charset=utf-8', gzipSync(bombs.gzip), {
      'content-encoding': 'gzip, gzip',
    }),
    '/endless': (_request, response) => endless(response, Buffer.alloc(256 * 1024, '<p>more</p>'), 5),
    '/trickle': (_request, response) => endless(response, Buffer.from('.'), 500),
    '/redirect-loop': (_request, response) =>
      void response.writeHead(302, { location: '/redirect-loop' }).end(),
    '/redirect-chain': (request, response) => {
      const hop = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('hop') ?? 0);
      void response.writeHead(302, { location: `/redirect-chain?hop=${hop + 1}` }).end();
    },
    '/redirect-private': (_request, response) => void response.writeHead(302, { location: secret }).end(),
    '/redirect-mapped': (_request, response) =>
      void response
        .writeHead(302, { location: `http://[::ffff:127.0.0.2]:${privateSite.port}/secret` })
        .end(),
    '/meta-refresh-private': html(
      page(
        'Refreshing',
        '<p>This page refreshes itself to an internal address.</p>',
        `<meta http-equiv="refresh" content="0; url=${secret}">`,
      ),
    ),
    '/late-redirect-private': html(
      page(
        'Late move',
        '<p>This page moves itself to an internal address after it loaded.</p>',
        `<script>addEventListener('load', () => setTimeout(() => { location.href = '${secret}'; }, 50));</script>`,
      ),
    ),
    '/navigate-nowhere': html(
      page(
        'Nowhere',
        '<p>This page moves to a port where nothing listens.</p>',
        `<script>location.href = 'http://127.0.0.1:9/';</script>`,
      ),
    ),
    '/echo-headers': (request, response) =>
      void response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(page('Headers', `<p>host=${String(request.headers.host)}</p><p>${NORMAL_MARKER}</p>`)),
  });
  return {
    ...site,
    privateSite,
    close: async () => {
      await site.close();
      await privateSite.close();
    },
  };
}

export { GIB, MIB };
