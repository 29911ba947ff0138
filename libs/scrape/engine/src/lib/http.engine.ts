import type { ScrapeRequest } from '@quarry/contracts';
import type { GuardedHttpClient } from '@quarry/platform/net';

import type { Engine, EngineContext, FetchedPage } from './engine.types';
import { acceptLanguageHeader, locationProfile } from './location.util';
import { droppedHeadersWarning, forwardableHeaders } from './request-headers.util';

/** Plain HTTP fetch through the guarded client: the fast path for pages that need no browser. */
export class HttpEngine implements Engine {
  readonly name = 'http' as const;

  constructor(private readonly client: GuardedHttpClient) {}

  /** `proxyUrl`: send the request through this proxy (the target is still checked by the guard). */
  async fetch(
    request: ScrapeRequest,
    context: EngineContext,
    options: { proxyUrl?: string } = {},
  ): Promise<FetchedPage> {
    const { headers, dropped } = forwardableHeaders(request.headers);
    // docs/scraping.md#options: the location defaults to country US, and its languages to the country's language
    // (the browser emulates the same); a caller's own Accept-Language wins.
    if (!hasHeader(headers, 'accept-language')) {
      const { languages } = locationProfile(request.location?.country ?? 'US', request.location?.languages);
      headers['accept-language'] = acceptLanguageHeader(languages);
    }
    const response = await this.client.fetch({
      url: request.url.trim(),
      headers,
      timeoutMs: Math.max(1, context.timeoutMs),
      skipTlsVerification: request.skipTlsVerification,
      signal: context.signal,
      proxyUrl: options.proxyUrl,
    });
    const warning = droppedHeadersWarning(dropped);
    return {
      engine: 'http',
      url: response.url,
      status: response.status,
      headers: response.headers,
      contentType: response.contentType,
      body: response.body,
      ...(warning ? { warnings: [warning] } : {}),
    };
  }
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}
