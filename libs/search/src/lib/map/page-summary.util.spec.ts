import { decodeHtmlEntities } from '@quarry/crawl';
import { seededTexts } from '@quarry/testing';

import { pageSummary } from './page-summary.util';

/** The summary as it was, with expressions over the whole page: the reference for generated pages. */
function regexSummary(html: string): { title?: string; description?: string } {
  const head = html.slice(0, 200_000);
  const attribute = (tag: string, name: string) => {
    const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(tag);
    return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
  };
  const clean = (text: string | undefined) => {
    const value = text
      ? decodeHtmlEntities(text.replace(/<[^>]*>/g, ' '))
          .replace(/\s+/g, ' ')
          .trim()
      : '';
    return value ? value.slice(0, 500) : undefined;
  };
  let description: string | undefined;
  for (const tag of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const name = attribute(tag, 'name') ?? attribute(tag, 'property');
    if (name && /^(description|og:description)$/i.test(name)) {
      description = attribute(tag, 'content');
      if (description) break;
    }
  }
  return {
    title: clean(/<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(head)?.[1]),
    description: clean(description),
  };
}

describe('pageSummary', () => {
  it('reads title and description', () => {
    expect(
      pageSummary(
        '<html><head><title> A &amp; <b>B</b> </title><meta name="description" content="About us"></head></html>',
      ),
    ).toEqual({ title: 'A & B', description: 'About us' });
  });

  it('answers as the expressions over the whole page did, on generated pages', () => {
    const pieces = [
      '<title>',
      '<TITLE lang=en>',
      '</title>',
      '</title >',
      'Home',
      ' & ',
      '&amp;',
      '<b>',
      '<b',
      '>',
      '<',
      '<meta name="description" content="D">',
      "<meta property=og:description content='E'>",
      '<meta',
      '<meta name=description>',
      ' ',
    ];
    for (const html of seededTexts(3, pieces, 3_000, 12)) {
      expect({ html, summary: pageSummary(html) }).toEqual({ html, summary: regexSummary(html) });
    }
  });

  it.each([
    ['unclosed <meta tags', '<meta x'.repeat(28_000)],
    ['unclosed <title> tags', '<title>x'.repeat(28_000)],
    ['a title of unclosed tags', `<title>${'<b '.repeat(60_000)}</title>`],
  ])('reads a 200 kB page of %s in linear time (6–9 s of the event loop before)', (_name, html) => {
    const started = performance.now();
    pageSummary(html);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
