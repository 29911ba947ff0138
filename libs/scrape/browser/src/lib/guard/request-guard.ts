import type { HTTPRequest, Page } from 'puppeteer-core';

import { isAdRequest } from './ad-block';
import type { HostResolver } from './host-resolver';

export interface RequestGuardOptions {
  resolver: HostResolver;
  blockAds: boolean;
  /** Headers of the request (`headers` option), sent only to the target's own host. */
  headers: Record<string, string>;
  targetHost: string;
}

export interface RefusedRequest {
  url: string;
  reason: 'private-address' | 'dns' | 'scheme';
  address?: string;
  /** A navigation of the main frame (the document itself or a redirect hop of it). */
  navigation: boolean;
}

const PASS_SCHEMES = new Set(['data:', 'blob:', 'about:']);
const WEB_SCHEMES = new Set(['http:', 'https:']);

/**
 * Request interception of one page: every request (document, redirect hop, sub-resource, XHR,
 * fetch, frame) is checked before Chromium sends it. Non-web schemes and private targets are
 * aborted, ads and consent managers too under `blockAds`, and the request's own headers go to the
 * target host only. The guard proxy behind the context enforces the same policy at connect time.
 */
export class RequestGuard {
  readonly refused: RefusedRequest[] = [];
  adsBlocked = 0;
  /** Chromium refused the request's own headers at least once; those requests went without them. */
  headersRefused = false;

  constructor(private readonly options: RequestGuardOptions) {}

  async attach(page: Page): Promise<void> {
    await page.setRequestInterception(true);
    page.on('request', (request) => void this.settle(request));
  }

  /**
   * Every intercepted request is continued or aborted, whatever rejects on the way: a request left
   * paused would hold the page (and its browser slot) until the job's deadline.
   */
  private async settle(request: HTTPRequest): Promise<void> {
    try {
      await this.decide(request);
    } catch {
      await this.abortQuietly(request, 'failed');
    }
  }

  private async decide(request: HTTPRequest): Promise<void> {
    if (request.isInterceptResolutionHandled()) return;
    const raw = request.url();
    const navigation = request.isNavigationRequest() && !request.frame()?.parentFrame();
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return this.abort(request, { url: raw, reason: 'scheme', navigation });
    }
    if (PASS_SCHEMES.has(url.protocol)) return this.proceed(request);
    if (!WEB_SCHEMES.has(url.protocol))
      return this.abort(request, { url: raw, reason: 'scheme', navigation });
    if (this.options.blockAds && isAdRequest(url)) {
      this.adsBlocked += 1;
      return this.abort(request);
    }
    const resolution = await this.options.resolver.resolve(url.hostname);
    if (!resolution.ok) {
      return this.abort(request, {
        url: raw,
        reason: resolution.reason === 'dns' ? 'dns' : 'private-address',
        address: resolution.address,
        navigation,
      });
    }
    if (url.hostname === this.options.targetHost && Object.keys(this.options.headers).length > 0) {
      return this.proceed(request, { ...request.headers(), ...this.options.headers });
    }
    return this.proceed(request);
  }

  private async proceed(request: HTTPRequest, headers?: Record<string, string>): Promise<void> {
    try {
      await request.continue(headers ? { headers } : undefined);
      return;
    } catch {
      // Chromium refused the overrides (an invalid or unsafe header), or the request went away.
    }
    if (headers) {
      this.headersRefused = true;
      try {
        await request.continue();
        return;
      } catch {
        // gone, or refused again: aborted below
      }
    }
    await this.abortQuietly(request, 'failed');
  }

  private async abort(request: HTTPRequest, refusal?: RefusedRequest): Promise<void> {
    if (refusal && this.refused.length < 200) this.refused.push(refusal);
    await this.abortQuietly(request, refusal?.reason === 'dns' ? 'namenotresolved' : 'blockedbyclient');
  }

  private async abortQuietly(
    request: HTTPRequest,
    reason: 'failed' | 'namenotresolved' | 'blockedbyclient',
  ): Promise<void> {
    if (request.isInterceptResolutionHandled()) return;
    try {
      await request.abort(reason);
    } catch {
      // the page or request went away meanwhile
    }
  }
}
