import { Client } from 'pg';

import { call } from './support/api-client';
import { createKey } from './support/cli';
import type { Body } from './support/documents-support';
import { type Platform, startCluster } from './support/platform';

// Upload references (POST /v2/parse/upload-url, the signed PUT, /v2/parse with uploadRef) on a cluster;
// document parsing itself is in documents.e2e-spec.ts.
jest.setTimeout(240_000);

describe('upload references (cluster)', () => {
  let platform: Platform;
  const mint = (body: Record<string, unknown>, apiKey = platform.apiKey) =>
    call<{ success: boolean; data: Record<string, string | number>; code?: string; error?: string }>(
      platform.url(),
      'POST',
      '/v2/parse/upload-url',
      { apiKey, body },
    );
  // Services listen on random ports, so PUBLIC_URL's default does not name them: keep path and query.
  const put = (url: string, data: Buffer, contentType = 'application/xhtml+xml') => {
    const signed = new URL(url);
    return fetch(`${platform.url()}${signed.pathname}${signed.search}`, {
      method: 'PUT',
      headers: { 'content-type': contentType },
      body: new Uint8Array(data),
    });
  };
  const parseRef = (uploadRef: string, apiKey = platform.apiKey, options: Record<string, unknown> = {}) =>
    call<Body>(platform.url(), 'POST', '/v2/parse', { apiKey, body: { uploadRef, ...options } });
  const xhtml = Buffer.from(
    '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>X</title></head><body><h1>Referenced upload</h1><p>Marker ref-99.</p></body></html>',
  );

  beforeAll(async () => {
    platform = await startCluster({
      gateways: 1,
      workers: 1,
      docParsers: 1,
      env: { PARSE_MAX_FILE_BYTES: String(1024 * 1024) },
    });
  });
  afterAll(() => platform?.stop());

  it('mints a reference, takes the PUT upload and parses it once', async () => {
    const minted = await mint({ filename: 'page.xhtml', contentType: 'application/xhtml+xml' });
    expect(minted.status).toBe(200);
    expect(minted.body.data).toMatchObject({
      method: 'PUT',
      maxSizeBytes: 1024 * 1024,
      headers: { 'content-type': 'application/xhtml+xml' },
    });
    expect(Date.parse(String(minted.body.data['expiresAt'])) - Date.now()).toBeGreaterThan(9 * 60_000);
    const uploaded = await put(String(minted.body.data['uploadUrl']), xhtml);
    expect(uploaded.status).toBe(200);
    const parsed = await parseRef(String(minted.body.data['uploadRef']), platform.apiKey, {
      formats: ['markdown'],
    });
    expect(parsed.status).toBe(200);
    expect(parsed.body.data.markdown).toBe('# Referenced upload\n\nMarker ref-99.');
    expect(parsed.body.data.metadata).toMatchObject({ sourceURL: 'page.xhtml', creditsUsed: 1 });
    expect((await parseRef(String(minted.body.data['uploadRef']))).status).toBe(409);
  });

  it('rejects tampered, foreign, expired and not yet uploaded references', async () => {
    const minted = await mint({ filename: 'a.html' });
    const ref = String(minted.body.data['uploadRef']);
    expect((await parseRef(ref)).body).toMatchObject({
      success: false,
      error: 'Nothing was uploaded for this reference yet: PUT the file to its uploadUrl first',
    });
    await put(String(minted.body.data['uploadUrl']), Buffer.from('<p>hello</p>'), 'text/html');
    const tampered = `${ref.slice(0, -2)}${ref.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await parseRef(tampered)).status).toBe(404);
    const other = createKey(platform.database?.url as string, 'other-uploader', ['--credits', '10']);
    expect((await parseRef(ref, other)).body).toMatchObject({
      success: false,
      error: 'Upload reference not found',
    });
    const client = new Client({ connectionString: platform.database?.url });
    await client.connect();
    try {
      await client.query("UPDATE parse_uploads SET expires_at = now() - interval '1 minute' WHERE id = $1", [
        ref.split('.')[0],
      ]);
    } finally {
      await client.end();
    }
    expect((await parseRef(ref)).body.error).toMatch(/expired/);
  });

  it('checks the signed upload URL and the size limits', async () => {
    const minted = await mint({ filename: 'b.csv', declaredSizeBytes: 10 });
    const url = String(minted.body.data['uploadUrl']);
    expect((await put(url.replace(/signature=[^&]+/, 'signature=forged'), Buffer.from('a,b'))).status).toBe(
      404,
    );
    expect((await put(url, Buffer.from('a,b\n1,2\n3,4'))).status).toBe(400);
    expect((await mint({ filename: 'c.csv', declaredSizeBytes: 2 * 1024 * 1024 })).status).toBe(413);
    const big = await mint({ filename: 'd.csv' });
    expect((await put(String(big.body.data['uploadUrl']), Buffer.alloc(2 * 1024 * 1024, 'a'))).status).toBe(
      413,
    );
    expect((await mint({ filename: 'e.exe' })).body).toMatchObject({ code: 'PARSE_UNSUPPORTED_FILE_TYPE' });
  });

  it('caps unparsed references at 10 per team per day', async () => {
    const key = createKey(platform.database?.url as string, 'busy-uploader', ['--credits', '10']);
    for (let index = 0; index < 10; index += 1)
      expect((await mint({ filename: `f${index}.pdf` }, key)).status).toBe(200);
    const refused = await mint({ filename: 'one-too-many.pdf' }, key);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, code: 'PARSE_UPLOAD_UNPARSED_LIMIT_REACHED' });
  });
});
