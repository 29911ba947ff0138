import { decodeHtmlEntities } from '@quarry/crawl';

const TITLE = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i;
const META = /<meta\b[^>]*>/gi;
const ATTRIBUTE = (name: string) =>
  new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i');

/** Title and description of a raw HTML page, cheaply (map shows them next to the links). */
export function pageSummary(html: string): { title?: string; description?: string } {
  const head = html.slice(0, 200_000);
  const title = TITLE.exec(head)?.[1];
  let description: string | undefined;
  for (const tag of head.match(META) ?? []) {
    const name = attribute(tag, 'name') ?? attribute(tag, 'property');
    if (name && /^(description|og:description)$/i.test(name)) {
      description = attribute(tag, 'content');
      if (description) break;
    }
  }
  return { title: clean(title), description: clean(description) };
}

function attribute(tag: string, name: string): string | undefined {
  const match = ATTRIBUTE(name).exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

function clean(text: string | undefined): string | undefined {
  const value = text
    ? decodeHtmlEntities(text.replace(/<[^>]*>/g, ' '))
        .replace(/\s+/g, ' ')
        .trim()
    : '';
  return value ? value.slice(0, 500) : undefined;
}
