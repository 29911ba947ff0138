import { seededTexts } from '@quarry/testing';

import { decodeHtmlEntities, discoverLinks } from './discover-links.util';

/** The scanner as it was, with regular expressions over the whole page: the reference for generated pages. */
function regexLinks(html: string, pageUrl: string): string[] {
  const text = html.replace(
    /<!--[\s\S]*?-->|<script\b[^>]*>[\s\S]*?<\/script\s*>|<style\b[^>]*>[\s\S]*?<\/style\s*>|<template\b[^>]*>[\s\S]*?<\/template\s*>/gi,
    ' ',
  );
  const resolve = (href: string, base: string) => {
    try {
      const url = new URL(href, base);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href.split('#')[0] : undefined;
    } catch {
      return undefined;
    }
  };
  let base = pageUrl;
  const links: string[] = [];
  for (const match of text.matchAll(/<(a|area|base)\s[^>]*>/gi)) {
    const href = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i.exec(match[0]);
    if (!href) continue;
    const value = decodeHtmlEntities((href[1] ?? href[2] ?? href[3] ?? '').trim());
    if (match[1].toLowerCase() === 'base') {
      if (base === pageUrl && value) base = resolve(value, pageUrl) ?? pageUrl;
      continue;
    }
    if (
      !value ||
      value.startsWith('#') ||
      /^(?:javascript|mailto|tel|data|sms|ftp|file|about|blob):/i.test(value)
    )
      continue;
    const absolute = resolve(value, base);
    if (absolute && !links.includes(absolute)) links.push(absolute);
  }
  return links;
}

describe('discoverLinks', () => {
  it('returns absolute http(s) links in document order, de-duplicated, without fragments', () => {
    const html = `<html><head><title>x</title></head><body>
      <a href="/a">A</a> <a class="x" href='b?x=1&amp;y=2'>B</a> <A HREF=/c#frag>C</A>
      <a href="/a#again">A again</a> <area href="/map-area">
      <a href="mailto:me@example.com">mail</a> <a href="javascript:void(0)">js</a> <a href="#top">top</a>
      <a href="https://other.example/x">other</a> <a name="anchor">no href</a>
      <!-- <a href="/commented">c</a> --> <script>var s = '<a href="/in-script">';</script>
    </body></html>`;
    expect(discoverLinks(html, 'https://example.com/dir/page')).toEqual([
      'https://example.com/a',
      'https://example.com/dir/b?x=1&y=2',
      'https://example.com/c',
      'https://example.com/map-area',
      'https://other.example/x',
    ]);
  });

  it('drops empty fragments and keeps encoded number signs', () => {
    expect(
      discoverLinks(
        '<a href="/x#">x</a><a href="/x">again</a><a href="?a=%23b#c">q</a><a href="/p%23q">p</a>',
        'https://example.com/dir/page#section',
      ),
    ).toEqual(['https://example.com/x', 'https://example.com/dir/page?a=%23b', 'https://example.com/p%23q']);
  });

  it('resolves against <base href>', () => {
    expect(
      discoverLinks(
        '<head><base href="https://cdn.example.com/root/"></head><a href="page">p</a>',
        'https://example.com/',
      ),
    ).toEqual(['https://cdn.example.com/root/page']);
  });

  it('finds the links the regular-expression scanner found, on generated pages', () => {
    const pieces = [
      '<a href="/x">',
      '<A HREF=/y>',
      "<area href='/z?q=1'>",
      '<base href="/dir/">',
      '<a name=n>',
      '<a href="#f">',
      '<!--',
      '-->',
      '<script>',
      '<SCRIPT type=x>',
      '</script>',
      '</script >',
      '<style>',
      '</style>',
      '<template>',
      '</template>',
      '<a href="/in">',
      'text',
      '>',
      '<',
      '<a',
      ' ',
      '<scripts>',
      '&amp;',
    ];
    for (const html of seededTexts(5, pieces, 2_000, 14)) {
      expect({ html, links: discoverLinks(html, 'https://site.test/p/') }).toEqual({
        html,
        links: regexLinks(html, 'https://site.test/p/'),
      });
    }
  });

  it.each([
    ['unclosed <script> tags', '<script>x '],
    ['unclosed comments', '<!-- x '],
    ['unclosed <a tags', '<a x '],
  ])(
    'reads a page of 200,000 %s in linear time (each searched to the end of the page: minutes)',
    (_name, piece) => {
      const html = `<a href="/first">1</a>${piece.repeat(200_000)}`;
      const started = performance.now();
      const links = discoverLinks(html, 'https://site.test/');
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(links).toEqual(['https://site.test/first']);
    },
  );
});
