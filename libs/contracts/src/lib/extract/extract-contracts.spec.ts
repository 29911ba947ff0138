import { describeValidationError, UNRECOGNIZED_KEY_MESSAGE } from '../errors/error-body';
import { OPEN_SCHEMA_MESSAGE } from '../scrape/formats.schema';
import { EXTRACT_MESSAGES, extractRequestSchema } from './extract-request.schema';

function failure(body: unknown) {
  const result = extractRequestSchema.safeParse(body);
  if (result.success) throw new Error(`expected failure for ${JSON.stringify(body)}`);
  return describeValidationError(result.error);
}

describe('extract request (docs/extract.md)', () => {
  it('applies the documented defaults', () => {
    const sut = extractRequestSchema.parse({ urls: ['https://example.com/a'] });
    expect(sut).toEqual({
      urls: ['https://example.com/a'],
      ignoreSitemap: false,
      includeSubdomains: true,
      allowExternalLinks: false,
      enableWebSearch: false,
      showSources: false,
      ignoreInvalidURLs: true,
      urlTrace: false,
      origin: 'api',
    });
  });

  it('needs urls or a prompt, in that exact wording', () => {
    for (const body of [{}, { urls: [] }, { prompt: '   ' }, { schema: { type: 'object' } }]) {
      expect(failure(body).message).toBe("Either 'urls' or 'prompt' must be provided.");
    }
    expect(extractRequestSchema.safeParse({ prompt: 'Find the price' }).success).toBe(true);
  });

  it('accepts at most 10 URLs', () => {
    const urls = (count: number) =>
      Array.from({ length: count }, (_, index) => `https://e${index}.example.com/`);
    expect(extractRequestSchema.safeParse({ urls: urls(10) }).success).toBe(true);
    expect(failure({ urls: urls(11) })).toMatchObject({
      message: EXTRACT_MESSAGES.tooManyUrls,
      details: [expect.objectContaining({ path: ['urls'] })],
    });
  });

  it('limits prompt and systemPrompt to 10000 characters', () => {
    const long = 'x'.repeat(10_001);
    expect(failure({ prompt: long }).details[0]).toMatchObject({ path: ['prompt'], code: 'too_big' });
    expect(failure({ prompt: 'p', systemPrompt: long }).details[0]).toMatchObject({ path: ['systemPrompt'] });
    expect(extractRequestSchema.safeParse({ prompt: 'x'.repeat(10_000) }).success).toBe(true);
  });

  it('forces allowExternalLinks with enableWebSearch', () => {
    expect(extractRequestSchema.parse({ prompt: 'p', enableWebSearch: true }).allowExternalLinks).toBe(true);
    expect(extractRequestSchema.parse({ prompt: 'p', allowExternalLinks: true }).enableWebSearch).toBe(false);
  });

  it('rejects unknown keys, also inside agent, and accepts what the SDK sends', () => {
    expect(failure({ prompt: 'p', maxCredits: 10 }).message).toBe(UNRECOGNIZED_KEY_MESSAGE);
    expect(failure({ prompt: 'p', agent: { model: 'FIRE-1', extra: 1 } }).message).toBe(
      UNRECOGNIZED_KEY_MESSAGE,
    );
    const sdk = extractRequestSchema.parse({
      urls: ['https://example.com/*'],
      prompt: 'Extract the product',
      schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      systemPrompt: 'Be terse',
      allowExternalLinks: false,
      enableWebSearch: false,
      showSources: true,
      ignoreInvalidURLs: true,
      integration: 'my-app',
      origin: 'js-sdk@4.42.0',
      agent: { model: 'FIRE-1' },
      webhook: { url: 'https://hooks.example.com/x', events: ['completed'] },
      threatProtection: { level: 'high' },
      scrapeOptions: { onlyMainContent: false, waitFor: 100, origin: 'js-sdk@4.42.0' },
    });
    expect(sdk).toMatchObject({
      origin: 'js-sdk@4.42.0',
      webhook: { url: 'https://hooks.example.com/x', events: ['completed'], headers: {}, metadata: {} },
      scrapeOptions: { onlyMainContent: false, waitFor: 100, timeout: 60_000 },
    });
  });

  it('keeps the json format rules for schemas: an open object without properties is a 400', () => {
    expect(failure({ prompt: 'p', schema: { type: 'object', additionalProperties: true } })).toMatchObject({
      message: OPEN_SCHEMA_MESSAGE,
      details: [expect.objectContaining({ path: ['schema'] })],
    });
    expect(failure({ prompt: 'p', schema: 'name, price' }).details[0]).toMatchObject({ path: ['schema'] });
  });

  it('checks the scrape options it passes on', () => {
    expect(failure({ urls: ['https://example.com'], scrapeOptions: { lockdown: true } }).message).toBe(
      EXTRACT_MESSAGES.lockdown,
    );
    expect(
      failure({ urls: ['https://example.com'], scrapeOptions: { waitFor: 3_000 }, timeout: 5_000 }).message,
    ).toBe('waitFor must not exceed half of timeout');
    expect(
      failure({ urls: ['https://example.com'], scrapeOptions: { formats: ['nope'] } }).details[0].path[0],
    ).toBe('scrapeOptions');
    expect(failure({ urls: ['https://example.com'], timeout: 999 }).details[0]).toMatchObject({
      path: ['timeout'],
    });
  });
});
