import { createHmac, timingSafeEqual } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Signs upload references and upload URLs with the platform's blob secret, so a reference or URL
 * cannot be forged or altered; tenancy is checked against the database on top.
 */
export class UploadSigner {
  constructor(private readonly secret: string) {}

  /** `<uploadId>.<signature>`: what `POST /v2/parse {uploadRef}` takes. */
  reference(uploadId: string): string {
    return `${uploadId}.${this.sign(`ref\n${uploadId}`)}`;
  }

  /** The upload id of a genuine reference, else undefined (malformed or tampered). */
  verifyReference(reference: string): string | undefined {
    const [uploadId, signature, ...rest] = reference.split('.');
    if (rest.length || !uploadId || !signature || !UUID.test(uploadId)) return undefined;
    return this.equal(signature, this.sign(`ref\n${uploadId}`)) ? uploadId.toLowerCase() : undefined;
  }

  urlSignature(uploadId: string, expires: number): string {
    return this.sign(`put\n${uploadId}\n${expires}`);
  }

  /** True for an unexpired, untampered upload URL. */
  verifyUrl(
    uploadId: string,
    expires: string | undefined,
    signature: string | undefined,
    now = Date.now(),
  ): boolean {
    const at = Number(expires);
    if (!UUID.test(uploadId) || !signature || !Number.isInteger(at) || at * 1000 < now) return false;
    return this.equal(signature, this.urlSignature(uploadId, at));
  }

  private sign(value: string): string {
    return createHmac('sha256', this.secret).update(value).digest('base64url');
  }

  private equal(given: string, expected: string): boolean {
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
