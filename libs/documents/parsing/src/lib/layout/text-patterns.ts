/** Recognisers for list markers, page numbers and captions in extracted text. */

const BULLET_START = /^([•◦▪▫‣⁃●○■□◆◇►▸▹➢➤✓✔·*–—-])\s+(?=\S)/;
const ORDERED_START = /^(\(?(\d{1,3}|[a-z]|[ivxlcdm]{1,5})[.)])\s+(?=\S)/i;

export interface ListMarker {
  ordered: boolean;
  /** The marker as written (`1.`, `a)`, `•`). */
  marker: string;
  /** The item's text without its marker. */
  rest: string;
}

/** The list marker a line starts with, if any. */
export function listMarker(text: string): ListMarker | undefined {
  const bullet = BULLET_START.exec(text);
  if (bullet) return { ordered: false, marker: bullet[1], rest: text.slice(bullet[0].length) };
  const ordered = ORDERED_START.exec(text);
  if (ordered) {
    const body = ordered[2];
    // "I. Introduction"-style headings and single capitals are ambiguous; only lower-case letters count.
    if (/^[A-Z]$/.test(body)) return undefined;
    return { ordered: true, marker: ordered[1], rest: text.slice(ordered[0].length) };
  }
  return undefined;
}

const PAGE_NUMBER = [
  /^(page|p\.|pg\.?|seite|página|pagina)?\s*\d{1,5}(\s*(of|\/|von|de|sur)\s*\d{1,5})?$/i,
  /^[-–—]\s*\d{1,5}\s*[-–—]$/,
  /^\[\s*\d{1,5}\s*\]$/,
  /^(?=[xvi])x{0,3}(ix|iv|v?i{0,3})$/i,
];

/** True for texts that are only a page number ("12", "Page 3 of 9", "- 4 -", "xii"). */
export function isPageNumberText(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.length > 0 && trimmed.length <= 24 && PAGE_NUMBER.some((pattern) => pattern.test(trimmed));
}

const CAPTION =
  /^(figure|fig\.|table|tab\.|chart|image|exhibit|diagram|photo|plate|source|abbildung|tabelle)\s*[\dIVXivx]+[a-z]?\s*[.:—–-]/i;

export function isCaptionText(text: string): boolean {
  return CAPTION.test(text.trim());
}

/** Text normalised for comparing running headers/footers across pages (page numbers ignored). */
export function furnitureKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

/** Escapes what would change a paragraph's meaning when it starts a markdown line. */
export function escapeParagraphStart(text: string): string {
  return text
    .replace(/^(#{1,6})(\s)/, '\\$1$2')
    .replace(/^([-+*])(\s)/, '\\$1$2')
    .replace(/^(\d{1,9})([.)])(\s)/, '$1\\$2$3')
    .replace(/^>/, '\\>')
    .replace(/^(```|~~~)/, '\\$1')
    .replace(/^(={3,}|-{3,})\s*$/, '\\$1');
}

/** Escapes a table cell (pipes and line breaks). */
export function escapeCell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/** Joins the lines of a paragraph: hyphenated line ends are rejoined, other breaks become spaces. */
export function joinParagraphLines(lines: readonly string[]): string {
  let text = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    if (!text) {
      text = line;
      continue;
    }
    if (/[A-Za-zÀ-ÿ]-$/.test(text) && /^[a-zà-ÿ]/.test(line)) text = text.slice(0, -1) + line;
    else text += ` ${line}`;
  }
  return text;
}
