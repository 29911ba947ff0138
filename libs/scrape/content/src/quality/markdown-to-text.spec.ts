import { markdownToText } from './markdown-to-text.util';

describe('markdownToText', () => {
  const sut = markdownToText;

  it('keeps the words and drops the syntax', () => {
    const markdown =
      '# Title\n\n- **bold** and *it* [link \\[x\\]](https://e.com/a_(b)) ![img](i.png)\n> quote `code`';
    expect(sut(markdown)).toBe('Title\n\nbold and it link [x] \nquote code ');
  });

  it('keeps intra-word underscores', () => {
    expect(sut('set `CACHE_MIDDLEWARE_SECONDS` and snake_case')).toBe(
      'set CACHE_MIDDLEWARE_SECONDS and snake_case',
    );
  });

  it('drops table pipes and separator rows', () => {
    expect(sut('| a | b |\n| --- | --- |\n| 1 | 2 |')).toBe(' a b \n\n 1 2 ');
  });
});
