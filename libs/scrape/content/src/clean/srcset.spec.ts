import { largestSrcsetUrl, parseSrcset } from './srcset.util';

describe('parseSrcset', () => {
  const sut = parseSrcset;

  it('reads width and density descriptors', () => {
    expect(sut('a.jpg 480w, b.jpg 1080w')).toEqual([
      { url: 'a.jpg', width: 480, density: 1 },
      { url: 'b.jpg', width: 1080, density: 1 },
    ]);
    expect(sut('a.jpg, b.jpg 2x')).toEqual([
      { url: 'a.jpg', density: 1 },
      { url: 'b.jpg', density: 2 },
    ]);
  });

  it('keeps commas that belong to the URL', () => {
    expect(
      sut('https://cdn.example.com/w_400,h_300/a.jpg 400w, https://cdn.example.com/w_800,h_600/a.jpg 800w'),
    ).toEqual([
      { url: 'https://cdn.example.com/w_400,h_300/a.jpg', width: 400, density: 1 },
      { url: 'https://cdn.example.com/w_800,h_600/a.jpg', width: 800, density: 1 },
    ]);
  });
});

describe('largestSrcsetUrl', () => {
  const sut = largestSrcsetUrl;

  it('picks the widest candidate', () => {
    expect(sut('s.jpg 320w, l.jpg 1280w, m.jpg 640w')).toBe('l.jpg');
  });

  it('picks the highest density when there are no widths', () => {
    expect(sut('a.jpg 1x, c.jpg 3x, b.jpg 2x')).toBe('c.jpg');
  });

  it('returns undefined for an empty set', () => {
    expect(sut('  ')).toBeUndefined();
  });
});
