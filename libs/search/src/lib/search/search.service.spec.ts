import { searchRequestSchema } from '@quarry/contracts';

import { maximumSearchCredits, providerLanguage, SEARCH_CATEGORIES, searchCredits } from './search.service';

describe('search pricing and provider parameters', () => {
  const request = (body: Record<string, unknown>) => searchRequestSchema.parse({ query: 'q', ...body });

  it('charges 2 credits per started block of 10 results, 5× with enterprise zdr or anon', () => {
    expect(searchCredits(0, request({}))).toBe(0);
    expect(searchCredits(1, request({}))).toBe(2);
    expect(searchCredits(10, request({}))).toBe(2);
    expect(searchCredits(11, request({}))).toBe(4);
    expect(searchCredits(10, request({ enterprise: ['zdr'] }))).toBe(10);
    expect(searchCredits(10, request({ enterprise: ['default'] }))).toBe(2);
  });

  it('pre-checks every source filled to limit plus a scrape per web result', () => {
    expect(maximumSearchCredits(request({}), false)).toBe(2);
    expect(maximumSearchCredits(request({ sources: ['web', 'news'], limit: 20 }), false)).toBe(8);
    expect(maximumSearchCredits(request({ scrapeOptions: { formats: ['markdown'] } }), false)).toBe(2 + 10);
    // a search for news alone scrapes nothing
    expect(
      maximumSearchCredits(request({ sources: ['news'], scrapeOptions: { formats: ['markdown'] } }), false),
    ).toBe(2);
  });

  it('sends lang and country to the provider as one locale', () => {
    expect(providerLanguage(request({}))).toBe('en-US');
    expect(providerLanguage(request({ country: 'gb' }))).toBe('en-GB');
    expect(providerLanguage(request({ lang: 'de', country: 'AT' }))).toBe('de-AT');
    // a location instead of a country: the language alone; a regional lang is kept as given
    expect(providerLanguage(request({ location: 'Berlin, Germany' }))).toBe('en');
    expect(providerLanguage(request({ lang: 'pt-BR', country: 'us' }))).toBe('pt-BR');
    expect(providerLanguage(request({ lang: 'all' }))).toBe('all');
    expect(providerLanguage(request({ country: 'united states' }))).toBe('en');
  });
});

describe('search categories', () => {
  it('asks the provider per category and places the team pages that belong to one', () => {
    expect(SEARCH_CATEGORIES.github).toMatchObject({ provider: 'it', queryFilter: 'site:github.com' });
    expect(SEARCH_CATEGORIES.research.provider).toBe('science');
    expect(SEARCH_CATEGORIES.pdf.queryFilter).toBe('filetype:pdf');
    expect(SEARCH_CATEGORIES.github.matches('https://github.com/a/b')).toBe(true);
    expect(SEARCH_CATEGORIES.github.matches('https://gitlab.com/a/b')).toBe(false);
    expect(SEARCH_CATEGORIES.research.matches('https://export.arxiv.org/abs/1')).toBe(true);
    expect(SEARCH_CATEGORIES.pdf.matches('https://a.example/paper.PDF')).toBe(true);
    expect(SEARCH_CATEGORIES.pdf.matches('https://a.example/paper.pdf.html')).toBe(false);
    expect(SEARCH_CATEGORIES.developer.matches('https://docs.example.com/guide')).toBe(true);
    expect(SEARCH_CATEGORIES.developer.matches('https://stackoverflow.com/q/1')).toBe(true);
    expect(SEARCH_CATEGORIES.developer.matches('https://www.example.com/')).toBe(false);
  });
});
