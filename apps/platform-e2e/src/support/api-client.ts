export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
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
  if (file) form.append('file', new Blob([new Uint8Array(file.data)], { type: file.contentType ?? 'application/octet-stream' }), file.filename);
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: form });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // non-JSON body
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}
