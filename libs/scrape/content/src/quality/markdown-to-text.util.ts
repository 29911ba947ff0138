const LINK_TEXT = String.raw`\[((?:\\.|[^\]\\])*)\]`;
const LINK_TARGET = String.raw`\((?:[^()]|\([^)]*\))*\)`;

/**
 * Plain text of a markdown document for word-overlap scoring: images, link targets, emphasis markers,
 * heading/list/quote prefixes, table pipes and code fences go; the words stay. Intra-word `_` (as in
 * `snake_case`) is part of the word, as `\w` has it.
 */
export function markdownToText(markdown: string): string {
  return markdown
    .replace(/^[ \t]*(```|~~~).*$/gm, '')
    .replace(new RegExp(`!${LINK_TEXT}${LINK_TARGET}`, 'g'), '')
    .replace(new RegExp(`${LINK_TEXT}${LINK_TARGET}`, 'g'), '$1')
    .replace(/^[ \t]{0,3}#{1,6}[ \t]+/gm, '')
    .replace(/^(?:[ \t]*>)+[ \t]?/gm, '')
    .replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/gm, '')
    .replace(/^[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+[ \t]*:?-*:?[ \t]*$/gm, '')
    .replace(/\|/g, ' ')
    .replace(/`+|~~/g, ' ')
    .replace(/(^|[^\w\\])[*_]+(?=\S)/gm, '$1')
    .replace(/([^\s\\])[*_]+(?=\W|$)/gm, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1')
    .replace(/[ \t]+/g, ' ');
}
