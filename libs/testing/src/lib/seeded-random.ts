/** A deterministic pseudo-random sequence in [0, 1): generated test cases are the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

/** `count` texts, each of up to `maxPieces` pieces drawn from `pieces` (generated markup, the same on every run). */
export function seededTexts(
  seed: number,
  pieces: readonly string[],
  count: number,
  maxPieces: number,
): string[] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () => {
    let text = '';
    for (let left = Math.floor(next() * maxPieces); left > 0; left -= 1)
      text += pieces[Math.floor(next() * pieces.length)];
    return text;
  });
}
