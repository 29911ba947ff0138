import { repairMojibake } from './repair-mojibake.util';

const doubleEncoded = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

describe('repairMojibake', () => {
  it('decodes UTF-8 read as Latin-1 back', () => {
    expect(repairMojibake(doubleEncoded('we’ll see — 10 °C → Rust® ⭐'))).toBe(
      'we’ll see — 10 °C → Rust® ⭐',
    );
  });

  it('leaves text without C1 control characters alone', () => {
    expect(repairMojibake('Ã la carte, café')).toBe('Ã la carte, café');
  });

  it('keeps sequences that are not valid UTF-8', () => {
    expect(repairMojibake('\u0085 \u00e0\u0080\u0080')).toBe('\u0085 \u00e0\u0080\u0080');
  });
});
