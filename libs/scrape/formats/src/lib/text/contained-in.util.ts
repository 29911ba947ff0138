/** Below this many characters compared in the worst case, `includes` per needle is cheapest. */
const DIRECT_WORK = 20_000_000;
/** Needles are hashed on their first characters at most: one pass of the haystack per distinct length up to it. */
const WINDOW = 48;
/** Full comparisons after a window matched, at most; past it the needles not yet seen count as absent. */
const VERIFY_BUDGET = 50_000_000;
const BASE = 0x01000193;
// Read once: a global looked up per character is slow where globals are intercepted (vm contexts).
const imul = Math.imul;

/**
 * Which of `needles` occur in `haystack`: `new Set(needles.filter((n) => haystack.includes(n)))`
 * without its cost of needles × haystack on a large page (tens of thousands of labelled values
 * checked against the page's whole text). Needles are grouped by their first WINDOW characters'
 * length and found with a rolling hash, one pass of the haystack per length, each window match
 * confirmed by comparing the whole needle. A hostile page whose windows keep matching without the
 * needles following stops after VERIFY_BUDGET characters compared: the rest count as absent.
 */
export function containedIn(haystack: string, needles: readonly string[]): Set<string> {
  const distinct = [...new Set(needles)];
  const found = new Set<string>();
  if (distinct.length * haystack.length <= DIRECT_WORK || distinct.length < 32) {
    for (const needle of distinct) if (haystack.includes(needle)) found.add(needle);
    return found;
  }
  const byWindow = new Map<number, Map<number, string[]>>();
  for (const needle of distinct) {
    if (!needle) {
      found.add(needle);
      continue;
    }
    if (needle.length > haystack.length) continue;
    const width = Math.min(WINDOW, needle.length);
    let table = byWindow.get(width);
    if (!table) byWindow.set(width, (table = new Map()));
    const key = hashOf(needle, 0, width);
    const bucket = table.get(key);
    if (bucket) bucket.push(needle);
    else table.set(key, [needle]);
  }
  let budget = VERIFY_BUDGET;
  for (const [width, table] of byWindow) {
    let drop = 1; // BASE^(width-1), to take the leaving character out of the hash
    for (let step = 1; step < width; step += 1) drop = imul(drop, BASE);
    let hash = hashOf(haystack, 0, width);
    for (let start = 0; start + width <= haystack.length; start += 1) {
      if (start > 0) {
        hash = (hash - imul(haystack.charCodeAt(start - 1), drop)) | 0;
        hash = (imul(hash, BASE) + haystack.charCodeAt(start + width - 1)) | 0;
      }
      const bucket = table.get(hash);
      if (!bucket) continue;
      for (let index = bucket.length - 1; index >= 0; index -= 1) {
        const needle = bucket[index];
        budget -= needle.length;
        if (haystack.startsWith(needle, start)) {
          found.add(needle);
          bucket.splice(index, 1);
        }
      }
      if (!bucket.length) table.delete(hash);
      if (!table.size || budget <= 0) break;
    }
    if (budget <= 0) break;
  }
  return found;
}

function hashOf(text: string, start: number, width: number): number {
  let hash = 0;
  for (let index = start; index < start + width; index += 1)
    hash = (imul(hash, BASE) + text.charCodeAt(index)) | 0;
  return hash;
}
