import { MAX_DOM_DEPTH } from './limit-depth.util';
import { parseDocument } from './parse-document.util';

/** The body's text with whitespace collapsed, after parsing (and completing streamed segments). */
const bodyText = (html: string) =>
  (parseDocument(html).body?.innerHTML ?? '')
    .replace(/<!--[\s\S]*?-->|<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const bodyHtml = (html: string) => parseDocument(html).body?.innerHTML ?? '';

describe('streamed segments (React streaming server rendering)', () => {
  it('replaces a Suspense fallback with its segment where the $RC script puts it', () => {
    const html =
      '<html><body><main><h1>Chair</h1><!--$?--><template id="B:0"></template><p>Loading…</p><!--/$--><p>Footer note</p></main>' +
      '<div hidden id="S:0"><section><h2>Specifications</h2><p>Seat height 45 cm</p></section></div>' +
      '<script>$RC("B:0","S:0")</script></body></html>';
    expect(bodyText(html)).toBe('Chair Specifications Seat height 45 cm Footer note');
    expect(bodyHtml(html)).not.toContain('hidden');
    expect(bodyHtml(html)).not.toContain('template');
  });

  it('fills placeholders with $RS, follows the scripts over the numbering, and handles nested segments', () => {
    const html =
      '<html><body><article><!--$?--><template id="B:1"></template><span>…</span><!--/$--><template id="P:7"></template></article>' +
      '<div hidden id="S:2"><p>First part</p><div><template id="P:3"></template></div></div>' +
      '<script>$RC("B:1","S:2")</script>' +
      '<div hidden id="S:3"><p>Nested part</p></div><script>$RS("S:3","P:3")</script>' +
      '<div hidden id="S:4"><p>Last part</p></div><script>$RS("S:4","P:7")</script></body></html>';
    expect(bodyText(html)).toBe('First part Nested part Last part');
  });

  it('pairs a segment with the template of its own number when the page has no scripts left', () => {
    const html =
      '<html><body><div id="toc"><template id="P:5"></template></div><p>Intro</p>' +
      '<div hidden id="S:5"><a href="#a">How it works</a></div></body></html>';
    expect(bodyText(html)).toBe('How it works Intro');
  });

  it('keeps the fallback when the boundary has no end marker, and leaves a segment that would go inside itself', () => {
    const open =
      '<html><body><div><!--$?--><template id="B:0"></template><p>Kept fallback</p></div><p>After</p>' +
      '<div hidden id="S:0"><p>Segment</p></div><script>$RC("B:0","S:0")</script></body></html>';
    expect(bodyText(open)).toBe('Segment Kept fallback After');
    const selfNested =
      '<html><body><p>Text</p><div hidden id="S:9"><template id="P:9"></template><p>Loop</p></div></body></html>';
    expect(bodyHtml(selfNested)).toContain('<div hidden id="S:9">');
  });

  it('leaves pages without streamed segments as they are', () => {
    const html =
      '<html><body><div hidden id="menu"><p>Menu</p></div><template id="B:0"></template><p>Text</p></body></html>';
    expect(bodyHtml(html)).toBe(
      '<div hidden id="menu"><p>Menu</p></div><template id="B:0"></template><p>Text</p>',
    );
  });

  it('keeps the depth limit when a deep segment goes into a deep placeholder', () => {
    const deep = (n: number, inner: string) => '<div>'.repeat(n) + inner + '</div>'.repeat(n);
    const html = `<html><body>${deep(500, '<template id="P:1"></template>')}<div hidden id="S:1">${deep(500, '<p>Bottom</p>')}</div></body></html>`;
    const body = parseDocument(html).body;
    let depth = 0;
    for (let e = body?.firstElementChild ?? null; e; e = e.firstElementChild) depth += 1;
    expect(depth).toBeLessThanOrEqual(MAX_DOM_DEPTH);
    expect(body?.textContent).toContain('Bottom');
  });

  it('stays fast on a page streaming thousands of segments', () => {
    const n = 4_000;
    const shell = Array.from(
      { length: n },
      (_, i) => `<!--$?--><template id="B:${i.toString(16)}"></template><i>…</i><!--/$-->`,
    ).join('');
    const segments = Array.from(
      { length: n },
      (_, i) =>
        `<div hidden id="S:${i.toString(16)}"><p>Row ${i}</p></div><script>$RC("B:${i.toString(16)}","S:${i.toString(16)}")</script>`,
    ).join('');
    const started = performance.now();
    const text = bodyText(`<html><body><main>${shell}</main>${segments}</body></html>`);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(text.startsWith('Row 0 Row 1 Row 2')).toBe(true);
    expect(text).not.toContain('…');
  });
});
