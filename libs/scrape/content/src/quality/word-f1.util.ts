export interface WordScores {
  precision: number;
  recall: number;
  f1: number;
}

// Python's `\w` (the reference implementation): letters, digits and underscore, Unicode-aware.
const WORD = /[\p{L}\p{N}_]+/gu;

/** Lower-cased `\w+` tokens (Unicode word characters), the unit of the WCXB word-F1 metric. */
export function wordTokens(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** Precision/recall/F1 of the token multisets of a prediction against a reference. */
export function wordF1(predicted: string, reference: string): WordScores {
  const pred = wordTokens(predicted);
  const ref = wordTokens(reference);
  if (pred.length === 0 && ref.length === 0) return { precision: 1, recall: 1, f1: 1 };
  if (pred.length === 0 || ref.length === 0) return { precision: 0, recall: 0, f1: 0 };
  const counts = new Map<string, number>();
  for (const token of ref) counts.set(token, (counts.get(token) ?? 0) + 1);
  let overlap = 0;
  for (const token of pred) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      overlap++;
      counts.set(token, left - 1);
    }
  }
  const precision = overlap / pred.length;
  const recall = overlap / ref.length;
  const f1 = overlap === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/** A text prepared for repeated snippet look-ups. */
export function snippetHaystack(text: string): string {
  return ` ${wordTokens(text).join(' ')} `;
}

/** Whether a snippet's word sequence occurs in the haystack (punctuation, case and markup ignored). */
export function containsSnippet(haystack: string, snippet: string): boolean {
  const needle = wordTokens(snippet).join(' ');
  return needle === '' || haystack.includes(` ${needle} `);
}
