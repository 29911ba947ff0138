/** Relevance of a link to a map `search` (cosine similarity of token counts; docs/crawl.md#map). */

export function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token.length > 1);
}

function vector(words: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

export function cosineSimilarity(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const va = vector(a);
  const vb = vector(b);
  let dot = 0;
  for (const [word, count] of va) dot += count * (vb.get(word) ?? 0);
  const norm = (v: Map<string, number>) =>
    Math.sqrt([...v.values()].reduce((sum, count) => sum + count * count, 0));
  return dot / (norm(va) * norm(vb));
}

/** Orders items by relevance to `query` (stable: equal scores keep their order); a substring match of the whole query ranks first. */
export function rankByRelevance<T>(items: readonly T[], query: string, text: (item: T) => string): T[] {
  const queryTokens = tokens(query);
  const phrase = query.trim().toLowerCase();
  return items
    .map((item, index) => {
      const haystack = text(item);
      const score =
        cosineSimilarity(queryTokens, tokens(haystack)) +
        (phrase && haystack.toLowerCase().includes(phrase) ? 1 : 0);
      return { item, index, score };
    })
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.item);
}
