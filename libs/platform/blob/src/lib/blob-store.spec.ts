import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { BlobStore } from './blob-store';

describe('BlobStore', () => {
  let dir: string;
  let sut: BlobStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quarry-blobs-'));
    sut = new BlobStore({ dir, publicUrl: 'http://127.0.0.1:3002', signingSecret: 'test-secret' });
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function signatureOf(url: string): { key: string; expires: string; signature: string } {
    const parsed = new URL(url);
    return {
      key: parsed.pathname.replace(/^\/v2\/blobs\//, ''),
      expires: parsed.searchParams.get('expires') ?? '',
      signature: parsed.searchParams.get('signature') ?? '',
    };
  }

  it('serves a stored blob through its signed URL, and nothing with a forged or missing signature', async () => {
    const stored = await sut.put('screenshots', Buffer.from('png-bytes'), 'image/png', 60_000, '.png');
    const { key, expires, signature } = signatureOf(stored.url);
    expect(key).toBe(stored.key);
    await expect(sut.getSigned(key, expires, signature)).resolves.toEqual({
      data: Buffer.from('png-bytes'),
      contentType: 'image/png',
    });
    const forged = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
    await expect(sut.getSigned(key, expires, forged)).resolves.toBeUndefined();
    await expect(sut.getSigned(key, String(Number(expires) + 60), signature)).resolves.toBeUndefined();
    await expect(sut.getSigned(key, undefined, signature)).resolves.toBeUndefined();
  });

  it('refuses keys that leave its directory', async () => {
    await expect(sut.getSigned('../etc/passwd', '9999999999', 'x')).resolves.toBeUndefined();
    await expect(sut.get('a/../../outside')).rejects.toThrow('invalid blob key');
  });

  it('hides expired blobs and sweeps them, keeping the live ones', async () => {
    const expired = await sut.put('uploads', Buffer.from('old'), 'text/plain', -1_000);
    const live = await sut.put('uploads', Buffer.from('new'), 'text/plain', 60_000);
    await expect(sut.get(expired.key)).resolves.toBeUndefined();
    await expect(sut.sweep()).resolves.toBe(1);
    await expect(sut.get(live.key)).resolves.toMatchObject({ data: Buffer.from('new') });
    await sut.delete(live.key);
    await expect(sut.get(live.key)).resolves.toBeUndefined();
  });
});
