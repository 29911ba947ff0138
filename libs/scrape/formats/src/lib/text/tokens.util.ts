/** Words and sentences for the deterministic (offline) extractors. */

const STOPWORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does doing for from had has have having he her here hers him his how i if in ' +
    'into is it its itself just me more most my no nor not of off on once only or other our ours out over own same she should so some such ' +
    'than that the their theirs them then there these they this those through to too under until up very was we were what when where which ' +
    'while who whom why will with would you your yours about above after again against all am any because before below between both down ' +
    'during each few further let also may might must shall us via per yes get got one two many much every'
  ).split(/\s+/),
);

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** A light English stemmer: enough to match "returns"/"returned"/"return" and "shipping"/"ship". */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 5 && w.endsWith('ly')) w = w.slice(0, -2);
  if (w.length > 3 && /([^aeiouls])\1$/.test(w)) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** Lower-cased word runs (letters and digits of any script), decimals kept together. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:[.,'’][\p{L}\p{N}]+)*/gu) ?? [];
}

/** Content terms of a text: words without stopwords, stemmed. */
export function terms(text: string): string[] {
  return words(text)
    .filter((word) => !STOPWORDS.has(word) && (word.length > 1 || /\d/.test(word)))
    .map(stem);
}

const ABBREVIATIONS =
  /\b(?:mr|mrs|ms|dr|prof|sr|jr|st|vs|etc|e\.g|i\.e|inc|ltd|co|no|fig|approx|dept|est|ave|blvd|rd|mt|ft|vol|ed|op|cf|al)\.$/i;

/** Splits prose into sentences (keeps abbreviations, decimals and initials together). */
export function sentences(text: string): string[] {
  const out: string[] = [];
  const normalized = text.replace(/\s+/g, ' ').trim();
  if (!normalized) return out;
  let start = 0;
  const boundary = /([.!?…]+["'”’)\]]*)\s+(?=["'“‘([]?[\p{Lu}\p{N}])/gu;
  for (let match = boundary.exec(normalized); match; match = boundary.exec(normalized)) {
    const end = match.index + match[1].length;
    const candidate = normalized.slice(start, end);
    if (ABBREVIATIONS.test(candidate) || /\b\p{Lu}\.$/u.test(candidate)) continue;
    out.push(candidate.trim());
    start = boundary.lastIndex;
  }
  const rest = normalized.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

/**
 * Whether one word begins the other, as a word's forms do ("weigh" and "weight"), both of four
 * characters or more. Numbers are never forms of each other: "1234" does not say "12345".
 */
export function nearPrefix(a: string, b: string): boolean {
  if (a.length < 4 || b.length < 4 || !(a.startsWith(b) || b.startsWith(a))) return false;
  return !/\d/.test(a) && !/\d/.test(b);
}
