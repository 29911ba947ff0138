const INLINE_SPECIAL = /[\\`*[\]<]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;
const LINE_START_SPECIAL = /^(\s*)(#{1,6}(?=\s|$)|>|[-+*](?=\s)|=+\s*$|(\d+)([.)])(?=\s))/;

/** Escapes the characters of a text run that markdown would otherwise read as syntax. */
export function escapeMarkdownText(text: string): string {
  const escaped = text.replace(INLINE_SPECIAL, (ch) => (ch === '<' ? '\\<' : `\\${ch}`));
  return escaped.replace(
    LINE_START_SPECIAL,
    (_m, lead: string, mark: string, digits?: string, dot?: string) =>
      digits !== undefined ? `${lead}${digits}\\${dot}` : `${lead}\\${mark}`,
  );
}

/** A backtick fence longer than any backtick run inside `code`, at least `min` long. */
export function backtickFence(code: string, min: number): string {
  let longest = 0;
  for (const run of code.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(min, longest + 1));
}

/** Inline code span that survives backticks inside the code. */
export function inlineCode(code: string): string {
  const fence = backtickFence(code, 1);
  const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${code}${pad}${fence}`;
}

/** A URL safe to put inside `(...)` of a markdown link or image. */
export function markdownUrl(url: string): string {
  return url.replace(/[\s()<>]/g, (ch) => encodeURIComponent(ch));
}

/** Text for `[...]` of a link or `![...]` of an image: one line, brackets escaped. */
export function bracketText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/(?<!\\)([[\]])/g, '\\$1');
}
