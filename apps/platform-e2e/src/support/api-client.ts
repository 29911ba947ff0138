import { errorBodySchema, scrapeResponseSchema } from '@quarry/contracts';

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * Every answer of the API the tests see is checked against the published contract: any non-2xx of a
 * `/v2` route must be the error body (docs/compatibility.md#errors), and a successful scrape the document (docs/scraping.md#response-document).
 */
function checkContract(method: string, path: string, status: number, body: unknown): void {
  if (!path.startsWith('/v2')) return;
  const where = `${method} ${path} answered ${status}`;
  if (status >= 400) {
    const result = errorBodySchema.safeParse(body);
    if (!result.success)
      throw new Error(`${where} with a body outside the error contract: ${JSON.stringify(body)}`);
    return;
  }
  const scrape = /^\/v2\/scrape(\/[^/?]+)?(\?|$)/.test(path) && (method === 'POST' || method === 'GET');
  if (scrape && status === 200 && (body as { success?: unknown })?.success === true) {
    const result = scrapeResponseSchema.safeParse(body);
    if (!result.success)
      throw new Error(`${where} with a document outside the contract: ${result.error.message}`);
  }
}

/** Minimal HTTP client for black-box tests. */
export async function call<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  options: { apiKey?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers['authorization'] = `Bearer ${options.apiKey}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // non-JSON body (blobs, metrics)
  }
  checkContract(method, path, response.status, parsed);
  return { status: response.status, headers: response.headers, body: parsed as T };
}

/** A multipart upload (what the SDK's `parse()` sends): the file part and, when given, the options part as JSON. */
export async function upload<T = Record<string, unknown>>(
  baseUrl: string,
  path: string,
  file: { filename: string; data: Buffer; contentType?: string } | undefined,
  options: { apiKey?: string; options?: unknown; rawOptions?: string } = {},
): Promise<ApiResponse<T>> {
  const form = new FormData();
  if (options.rawOptions !== undefined) form.append('options', options.rawOptions);
  else if (options.options !== undefined) form.append('options', JSON.stringify(options.options));
  if (file)
    form.append(
      'file',
      new Blob([new Uint8Array(file.data)], { type: file.contentType ?? 'application/octet-stream' }),
      file.filename,
    );
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: form });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // non-JSON body
  }
  checkContract('POST', path, response.status, parsed);
  return { status: response.status, headers: response.headers, body: parsed as T };
}
