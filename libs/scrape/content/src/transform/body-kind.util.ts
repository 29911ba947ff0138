export type BodyKind = 'html' | 'json' | 'text';

function mimeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

function looksLikeJson(body: string): boolean {
  const trimmed = body.trim();
  const first = trimmed[0];
  const last = trimmed[trimmed.length - 1];
  if (!((first === '{' && last === '}') || (first === '[' && last === ']'))) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

/** How to treat a body: a JSON document (by type or by content), plain text, or HTML (the default). */
export function bodyKind(body: string, contentType: string | undefined): BodyKind {
  const mime = mimeOf(contentType);
  if (mime === 'application/json' || mime.endsWith('+json') || mime === 'text/json') return 'json';
  if (looksLikeJson(body)) return 'json';
  if (mime === 'text/plain') return 'text';
  return 'html';
}
