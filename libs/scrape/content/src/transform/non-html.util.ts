import { backtickFence } from '../markdown/markdown-escape.util';
import type { OutputFormat, TransformResult } from './transform.types';

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"]/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch] ?? ch,
  );
}

/** JSON bodies become a ```json block; plain text is passed through unescaped. */
export function transformNonHtml(
  body: string,
  kind: 'json' | 'text',
  formats: ReadonlySet<OutputFormat>,
): TransformResult {
  const result: TransformResult = { metadata: {} };
  if (formats.has('markdown')) {
    if (kind === 'json') {
      const json = body.trim();
      const fence = backtickFence(json, 3);
      result.markdown = `${fence}json\n${json}\n${fence}`;
    } else {
      result.markdown = body;
    }
  }
  if (formats.has('html')) result.html = `<pre>${escapeHtml(body)}</pre>`;
  if (formats.has('links')) result.links = [];
  if (formats.has('images')) result.images = [];
  return result;
}
