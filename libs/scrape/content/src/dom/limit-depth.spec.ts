import { limitDepth } from './limit-depth.util';
import { parseDocument } from './parse-document.util';

describe('limitDepth', () => {
  const sut = limitDepth;

  it('flattens nesting past the limit and keeps the text in order', () => {
    const body = parseDocument('<div><div><div><p>a</p><div><b>b</b></div></div></div><p>c</p></div>').body;
    if (!body) throw new Error('no body');
    sut(body, 3);
    expect(body.textContent).toBe('abc');
    expect(body.innerHTML).toBe('<div><div>ab</div><p>c</p></div>');
  });
});
