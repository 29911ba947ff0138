import type { ScrapeRequest } from '@quarry/contracts';
import type { GuardedHttpClient } from '@quarry/platform/net';
import type { Engine, EngineContext, FetchedPage } from './engine.types';

/** Plain HTTP fetch through the guarded client: the fast path for pages that need no browser. */
export class HttpEngine implements Engine {
  readonly name = 'http' as const;

  constructor(private readonly client: GuardedHttpClient) {}

  /** `proxyUrl`: send the request through this proxy (the target is still checked by the guard). */
  async fetch(request: ScrapeRequest, context: EngineContext, options: { proxyUrl?: string } = {}): Promise<FetchedPage> {
    const headers: Record<string, string> = { ...request.headers };
    const languages = request.location?.languages;
    if (languages?.length && !hasHeader(headers, 'accept-language')) headers['accept-language'] = acceptLanguage(languages);
    const response = await this.client.fetch({
      url: request.url.trim(),
      headers,
      timeoutMs: Math.max(1, context.timeoutMs),
      skipTlsVerification: request.skipTlsVerification,
      signal: context.signal,
      proxyUrl: options.proxyUrl,
    });
    return {
      engine: 'http',
      url: response.url,
      status: response.status,
      headers: response.headers,
      contentType: response.contentType,
      body: response.body,
    };
  }
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

/** `["de-CH", "fr"]` → `de-CH,fr;q=0.9`. */
export function acceptLanguage(languages: readonly string[]): string {
  return languages.map((language, index) => (index === 0 ? language : `${language};q=${Math.max(0.1, 1 - index / 10).toFixed(1)}`)).join(',');
}
