import { documentBilling, scrapeCredits } from './pricing';

describe('scrapeCredits', () => {
  const base = {
    formats: [{ type: 'markdown' }],
    zeroDataRetention: false,
    redactPII: false,
    lockdown: false,
  } as const;

  it('bills a parsed PDF per page and adds the language-model surcharges', () => {
    expect(scrapeCredits({ ...base, pdfPages: 3 })).toBe(3);
    expect(scrapeCredits({ ...base, pdfPages: 3, redactPII: true })).toBe(7);
  });

  it('bills a base64 PDF (parsers: []) one flat credit: the formats that are not applied to it cost nothing', () => {
    expect(scrapeCredits({ ...base, rawPdf: true })).toBe(1);
    expect(
      scrapeCredits({
        ...base,
        formats: [
          { type: 'markdown' },
          { type: 'summary' },
          { type: 'json' },
          { type: 'highlights', query: 'x' },
        ],
        redactPII: true,
        rawPdf: true,
      }),
    ).toBe(1);
    expect(scrapeCredits({ ...base, zeroDataRetention: true, rawPdf: true })).toBe(2);
  });

  it('bills json 5 and deterministicJson 3 per page (docs/scraping.md#credits), json winning when both apply', () => {
    expect(scrapeCredits(base)).toBe(1);
    expect(scrapeCredits({ ...base, formats: [{ type: 'json' }] } as never)).toBe(5);
    expect(scrapeCredits({ ...base, formats: [{ type: 'deterministicJson' }] } as never)).toBe(3);
    expect(
      scrapeCredits({
        ...base,
        formats: [{ type: 'deterministicJson' }, { type: 'changeTracking', modes: ['json'] }],
      } as never),
    ).toBe(5);
  });

  it('reads the PDF part of the price back from a stored document (cache hits)', () => {
    const pdf = (metadata: Record<string, unknown>) =>
      documentBilling({ metadata: { sourceURL: 'u', url: 'u', statusCode: 200, ...metadata } });
    expect(pdf({ contentType: 'application/pdf', numPages: 3 })).toEqual({ pdfPages: 3 });
    expect(pdf({ contentType: 'application/pdf' })).toEqual({ rawPdf: true });
    expect(pdf({ contentType: 'text/html; charset=utf-8' })).toEqual({});
    expect(
      scrapeCredits({ ...base, cacheHit: true, ...pdf({ contentType: 'application/pdf', numPages: 3 }) }),
    ).toBe(3);
  });
});
