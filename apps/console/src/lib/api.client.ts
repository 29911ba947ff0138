/** An error answered by the API in the spec's shape `{success:false, error, code?, details?}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * Calls this origin's API with a bearer key (the public API with the team key, the admin API with
 * the admin key). Relative paths only: the console talks to no other origin (connect-src 'self').
 */
export class ApiClient {
  constructor(
    private readonly key: string | undefined,
    private readonly fetcher: Fetch = (input, init) => fetch(input, init),
  ) {}

  get<T>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  patch<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('PATCH', path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.request<T>('DELETE', path);
  }

  /** A multipart upload (`POST /v2/parse`). */
  upload<T>(path: string, form: FormData): Promise<T> {
    return this.request<T>('POST', path, form);
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    if (!path.startsWith('/')) throw new Error(`the console calls its own origin only: ${path}`);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.key) headers['authorization'] = `Bearer ${this.key}`;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    let response: Response;
    try {
      response = await this.fetcher(path, {
        method,
        headers,
        body: payload,
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch (error) {
      throw new ApiError(
        0,
        `The server could not be reached (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const failed =
      !response.ok ||
      (parsed && typeof parsed === 'object' && (parsed as { success?: unknown }).success === false);
    if (failed) {
      const error = (parsed ?? {}) as { error?: unknown; code?: unknown; details?: unknown };
      throw new ApiError(
        response.status,
        typeof error.error === 'string'
          ? error.error
          : `${response.status} ${response.statusText || 'error'}`,
        typeof error.code === 'string' ? error.code : undefined,
        error.details,
      );
    }
    return parsed as T;
  }
}

/** The `cursor` (or any query) of an absolute `next` URL, as a path on this origin. */
export function localPath(next: string): string {
  const url = new URL(next, 'http://console.invalid');
  return `${url.pathname}${url.search}`;
}

/** Blob URLs (screenshots) carry the server's PUBLIC_URL; the same signed path works on this origin. */
export function sameOriginBlob(url: string): string | undefined {
  try {
    const parsed = new URL(url, 'http://console.invalid');
    return parsed.pathname.startsWith('/v2/blobs/') ? `${parsed.pathname}${parsed.search}` : undefined;
  } catch {
    return undefined;
  }
}
