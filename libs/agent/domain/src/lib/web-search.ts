import type { ProviderResult, SearchProvider } from '@quarry/search';

/** Results of one web search a run or extract job takes at most. */
export const WEB_SEARCH_RESULTS = 10;

/**
 * One web search for a run or an extract job: the provider's first page for `query` (cut to 400
 * characters), keeping the first 10 http(s) results. Provider failures are the caller's to report.
 */
export async function searchWeb(
  provider: SearchProvider,
  query: string,
  timeoutMs: number,
): Promise<ProviderResult[]> {
  const results = await provider.search(
    { query: query.slice(0, 400), category: 'general', page: 1 },
    { timeoutMs },
  );
  return results.filter((result) => /^https?:\/\//i.test(result.url)).slice(0, WEB_SEARCH_RESULTS);
}
