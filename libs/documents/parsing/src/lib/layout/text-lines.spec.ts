import { item } from './layout-test.util';
import { buildLines } from './text-lines';

describe('buildLines', () => {
  it('joins items on one baseline, spacing them by their gaps', () => {
    const lines = buildLines([
      item('Hello', 50, 100),
      item('world', 50 + 5 * 5.5 + 3, 100.4),
      item('!', 50 + 10 * 5.5 + 3, 100),
    ]);
    expect(lines.map((line) => line.text)).toEqual(['Hello world!']);
  });

  it('splits a row at a column gutter but keeps a bullet with its text', () => {
    const lines = buildLines([
      item('•', 60, 100),
      item('Bullet text', 80, 100),
      item('Right column', 330, 100),
    ]);
    expect(lines.map((line) => line.text)).toEqual(['• Bullet text', 'Right column']);
  });

  it('keeps superscripts on their line and rotated text out of it', () => {
    const lines = buildLines([
      item('E = mc', 50, 100),
      item('2', 83, 96, 7),
      item('arXiv:1234', 20, 300, 10, { rotated: true }),
    ]);
    expect(lines.map((line) => line.text)).toEqual(['E = mc2']);
    expect(lines[0].fontSize).toBe(11);
  });
});
