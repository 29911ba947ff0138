/** What a rule-based cleanup pass removed (for tests and the warning). */
export interface CleanupResult {
  markdown: string;
  removedBlocks: number;
}

const BOILERPLATE_LINE = [
  /\b(we|this (site|website)) uses? cookies\b|\baccept (all )?cookies\b|\bcookie (settings|preferences|policy|consent)\b|\bmanage (your )?consent\b/i,
  /\b(subscribe|sign up) (to|for) (our|the) (newsletter|mailing list|updates)\b|\bget (our|the) newsletter\b|\benter your e-?mail\b.*\b(subscribe|sign up)\b/i,
  /^\s*(share|share this|share on|tweet|pin it|email this)\b.*$/i,
  /\b(leave|post|add) a (comment|reply)\b|\blog ?in to (comment|reply)\b|^\s*\d+\s+comments?\s*$|\bcomments are closed\b/i,
  /^\s*(advertisement|sponsored( content)?|ad)\s*$/i,
  /^\s*(skip to (main )?content|back to top|print this page)\s*$/i,
];

const RELATED_HEADING =
  /^#{1,6}\s+(related (articles|posts|stories|content|products)|you (may|might) also like|read (more|next)|recommended( for you)?|more from|popular (posts|articles)|trending( now)?|comments?|leave a (reply|comment)|share this( article| post)?)\b/i;

/** A line made only of links (and separators): navigation, breadcrumbs, share bars. */
function isLinkOnly(line: string): boolean {
  const withoutLinks = line
    .replace(/!?\[[^\]]*\]\((?:[^()]|\([^)]*\))*\)/g, '')
    .replace(/[\s>›»/|•·,\-–—*]+/g, '')
    .trim();
  return withoutLinks.length === 0 && /\]\(/.test(line);
}

const isBreadcrumb = (line: string) => isLinkOnly(line) && /[>›»/]/.test(line.replace(/\]\([^)]*\)/g, ']'));
const isShareBar = (line: string) =>
  isLinkOnly(line) &&
  /\b(facebook|twitter|x\.com|linkedin|pinterest|whatsapp|reddit|share|tweet|mailto:)/i.test(line);

/**
 * Offline stand-in for the onlyCleanContent model pass: drops residual boilerplate blocks (cookie
 * and newsletter prompts, share bars, breadcrumbs, comment prompts, ad labels, related-article
 * sections) while leaving headings, lists, tables, code blocks, images and inline links alone.
 */
export function removeBoilerplate(markdown: string): CleanupResult {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let removedBlocks = 0;
  let inFence = false;
  let skippingSection: number | undefined;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index];
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      out.push(line);
      continue;
    }
    if (inFence) {
      out.push(line);
      continue;
    }
    const heading = /^(#{1,6})\s/.exec(line);
    if (skippingSection !== undefined) {
      if (heading && heading[1].length <= skippingSection) skippingSection = undefined;
      else continue;
    }
    if (heading && RELATED_HEADING.test(line)) {
      // Drop the section only when it is a list of links (related content), not prose.
      const body: string[] = [];
      for (let next = index + 1; next < lines.length && !/^(#{1,6})\s/.test(lines[next]); next += 1)
        if (lines[next].trim()) body.push(lines[next]);
      const linkish = body.filter((entry) =>
        isLinkOnly(entry.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')),
      ).length;
      if (body.length === 0 || linkish / body.length >= 0.6 || /comment|reply|share/i.test(line)) {
        skippingSection = heading[1].length;
        removedBlocks += 1;
        continue;
      }
    }
    if (
      line.trim() &&
      (BOILERPLATE_LINE.some((pattern) => pattern.test(line)) || isBreadcrumb(line) || isShareBar(line))
    ) {
      removedBlocks += 1;
      continue;
    }
    out.push(line);
  }
  return {
    markdown: out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    removedBlocks,
  };
}
