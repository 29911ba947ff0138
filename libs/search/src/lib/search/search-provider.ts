import type { GuardedHttpClient } from '@quarry/platform/net';

/** SearXNG category names the platform asks for (`it` and `science` serve the search `categories`). */
export type ProviderCategory = 'general' | 'news' | 'images' | 'it' | 'science';

export interface ProviderQuery {
  query: string;
  category: ProviderCategory;
  /** 1-based result page. */
  page: number;
  language?: string;
  safe?: boolean;
  /** day | week | month | year */
  timeRange?: string;
}

export interface ProviderResult {
  url: string;
  title: string;
  content: string;
  publishedDate?: string;
  imageUrl?: string;
  thumbnailUrl?: string;
  width?: number;
  height?: number;
}

/** A web search backend (docs/crawl.md#search: pluggable). */
export interface SearchProvider {
  readonly name: string;
  search(
    query: ProviderQuery,
    options: { signal?: AbortSignal; timeoutMs: number },
  ): Promise<ProviderResult[]>;
}

interface SearxngResult {
  url?: unknown;
  title?: unknown;
  content?: unknown;
  publishedDate?: unknown;
  img_src?: unknown;
  thumbnail_src?: unknown;
  resolution?: unknown;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * A SearXNG-compatible endpoint: `GET <base>/search?q=…&format=json&pageno=…&categories=…`, answering
 * `{results:[{url, title, content, publishedDate?, img_src?, thumbnail_src?, resolution?}]}`.
 * The endpoint is the operator's own configuration, so it may live on a private network.
 */
export class SearxngProvider implements SearchProvider {
  readonly name = 'searxng';

  constructor(
    private readonly baseUrl: string,
    private readonly client: GuardedHttpClient,
  ) {}

  async search(
    query: ProviderQuery,
    options: { signal?: AbortSignal; timeoutMs: number },
  ): Promise<ProviderResult[]> {
    const url = new URL(`${this.baseUrl}/search`);
    url.searchParams.set('q', query.query);
    url.searchParams.set('format', 'json');
    url.searchParams.set('pageno', String(query.page));
    url.searchParams.set('categories', query.category);
    if (query.language) url.searchParams.set('language', query.language);
    if (query.safe !== undefined) url.searchParams.set('safesearch', query.safe ? '2' : '0');
    if (query.timeRange) url.searchParams.set('time_range', query.timeRange);
    const response = await this.client.fetch({
      url: url.href,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      headers: { accept: 'application/json' },
      maxBytes: 5 * 1024 * 1024,
    });
    if (response.status !== 200) throw new Error(`search provider answered HTTP ${response.status}`);
    const body = JSON.parse(response.body.toString('utf8')) as { results?: SearxngResult[] };
    return (body.results ?? [])
      .map((result) => {
        const [width, height] = text(result.resolution)
          .split(/\s*[x×]\s*/)
          .map((part) => Number(part));
        return {
          url: text(result.url),
          title: text(result.title),
          content: text(result.content),
          publishedDate: text(result.publishedDate) || undefined,
          imageUrl: text(result.img_src) || undefined,
          thumbnailUrl: text(result.thumbnail_src) || undefined,
          width: Number.isFinite(width) && width > 0 ? width : undefined,
          height: Number.isFinite(height) && height > 0 ? height : undefined,
        };
      })
      .filter((result) => /^https?:\/\//i.test(result.url));
  }
}
