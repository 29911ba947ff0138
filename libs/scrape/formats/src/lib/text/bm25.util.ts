/** Okapi BM25 over a small collection (one page's passages or a few pages). */
export class Bm25 {
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;

  constructor(
    private readonly documents: readonly (readonly string[])[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    for (const document of documents) {
      for (const term of new Set(document))
        this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
    }
    this.averageLength =
      documents.reduce((sum, document) => sum + document.length, 0) / Math.max(1, documents.length);
  }

  idf(term: string): number {
    const df = this.documentFrequency.get(term) ?? 0;
    return Math.log(1 + (this.documents.length - df + 0.5) / (df + 0.5));
  }

  score(query: readonly string[], index: number): number {
    const document = this.documents[index];
    if (!document || document.length === 0) return 0;
    const counts = new Map<string, number>();
    for (const term of document) counts.set(term, (counts.get(term) ?? 0) + 1);
    let score = 0;
    for (const term of new Set(query)) {
      const tf = counts.get(term) ?? 0;
      if (tf === 0) continue;
      score +=
        (this.idf(term) * tf * (this.k1 + 1)) /
        (tf + this.k1 * (1 - this.b + (this.b * document.length) / Math.max(1, this.averageLength)));
    }
    return score;
  }
}
