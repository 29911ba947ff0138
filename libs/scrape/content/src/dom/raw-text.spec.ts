import { parseDocument } from './parse-document.util';
import { stripRawText } from './raw-text.util';

describe('stripRawText', () => {
  const sut = stripRawText;

  it('empties script and style bodies and keeps their tags', () => {
    expect(sut('<p>a</p><script type="x">if (a < b) {}</script><style>p{}</style><p>b</p>')).toBe(
      '<p>a</p><script type="x"></script><style></style><p>b</p>',
    );
  });

  it('ends a script only at </script followed by whitespace or >', () => {
    expect(sut('<script>"</scripts>" </script\n><p>x</p>')).toBe('<script></script\n><p>x</p>');
  });

  it('finds the end of the open tag past a quoted >', () => {
    expect(sut('<script data-x="a>b">var x;</script>')).toBe('<script data-x="a>b"></script>');
  });

  it('leaves comments, titles, textareas and attribute values alone', () => {
    const html =
      '<!-- <script> --><p>one</p><title>About <script> tags</title><textarea><style></textarea>' +
      '<div data-html="<script>"><p>two</p></div>';
    expect(sut(html)).toBe(html);
  });

  it('drops CDATA sections up to the next > as a browser does', () => {
    expect(sut('<body><![CDATA[ x > y ]]><div>kept</div></body>')).toBe('<body> y ]]><div>kept</div></body>');
  });

  it('gives the same tree as parsing the page as is', () => {
    const html = '<body><p>a &amp; b</p><script>document.write("<p>no</p>")</script><div>c</div></body>';
    expect(parseDocument(html).body?.innerHTML).toBe('<p>a &amp; b</p><script></script><div>c</div>');
  });
});
