import { scrapeRequestSchema } from '@quarry/contracts';

import { browserFeatures } from './browser-features.util';

const parse = (input: Record<string, unknown>) =>
  scrapeRequestSchema.parse({ url: 'https://example.com', ...input });

describe('browserFeatures', () => {
  it('needs nothing for a plain request', () => {
    expect(browserFeatures(parse({}))).toEqual([]);
    expect(browserFeatures(parse({ actions: [], formats: ['markdown', 'links', 'product'] }))).toEqual([]);
  });

  it('names every browser-only option', () => {
    const request = parse({
      actions: [{ type: 'wait', milliseconds: 10 }],
      formats: ['markdown', 'screenshot', 'branding'],
      waitFor: 100,
      mobile: true,
      location: { country: 'DE' },
      profile: { name: 'p' },
    });
    expect(browserFeatures(request)).toEqual([
      'actions',
      'screenshot',
      'branding',
      'waitFor',
      'mobile',
      'location',
      'profile',
    ]);
  });
});
