/** What a rule-based cleanup pass removed (for tests and the warning). */
export interface CleanupResult {
  markdown: string;
  removedBlocks: number;
}

const BOILERPLATE_LINE = [
  /\b(we|this (site|website)) uses? cookies\b|\baccept (all )?cookies\b|\bcookie (settings|preferences|policy|consent)\b|\bmanage (your )?consent\b|\b(our|the) use of cookies\b/i,
  /\b(subscribe|sign up) (to|for) (our|the) (newsletter|mailing list|updates)\b|\bget (our|the) newsletter\b|\benter your e-?mail\b.*\b(subscribe|sign up)\b/i,
  /\bcookies?\b.{0,120}\b(accept|agree|consent|decline|essential cookies|personali[sz]e|learn more\]|cookie policy)\b/i,
  /^(?=.{0,200}$).*\b(subscribe|sign up|stay in the loop|join)\b.{0,80}\b(newsletter|updates|news|release notes|mailing list|via rss|by email|via email|inbox)\b/i,
  /^\s*(©|\(c\)|copyright\b)\s*(\d{4})?|\ball rights reserved\b/i,
  /^\s*(share|share this|share on|share via|tweet|tweet this|pin it|pin this|email this|tag us)\b.*$/i,
  /^\s*did you (make|try|cook|bake) this (recipe|dish)\b|^\s*rate (this|it)\b/i,
  /\b(leave|post|add) a (comment|reply)\b|\blog ?in to (comment|reply)\b|^\s*\d+\s+comments?\s*$|\bcomments are closed\b/i,
  /^\s*(advertisement|sponsored( content)?|ad)\s*$/i,
  /^\s*(skip to (main )?content|back to top|print this page)\s*$/i,
  // Page utilities and feedback widgets: "Jump to recipe · Print recipe", "Was this page helpful? Yes No".
  /^\s*((jump|skip) to (the )?(recipe|content|main content|comments)|print (the )?(recipe|article|page))\b[\s·|•-]*((jump|skip) to \w+|print \w+)?\s*$/i,
  /^\s*(was|is) this (page|article|post|answer|guide|tutorial|information) (helpful|useful)\??|^\s*did you find this (page|article|post|guide|tutorial|answer) (helpful|useful)\b/i,
  /^\s*\[?edit this page\b|^\s*\[?log ?in\]?(\([^)]*\))? to (edit|comment|reply|post)\b/i,
  /^\s*(follow us|find us|connect with us) on\b/i,
  /^\s*(need (more )?help|still have questions)\?\s*\[?(chat|contact|talk|ask)\b/i,
];

const RELATED_HEADING =
  /^#{1,6}\s+(newsletter|subscribe|stay in touch)\s*$|^#{1,6}\s+(more (stories|news|articles|posts)|latest (news|stories|posts)|editor'?s picks|related (articles|posts|stories|content|products|jobs)|you (may|might) also like|read (more|next)|recommended( for you)?|more from|popular (posts|articles)|trending( now)?|comments?|leave a (reply|comment)|share this( article| post)?|customers (also )?(bought|viewed)|similar (jobs|products|posts|articles|items))\b/i;

/** A line made only of links (and separators): navigation, breadcrumbs, share bars. */
function isLinkOnly(line: string): boolean {
  const withoutLinks = line
    .replace(/!?\[[^\]]*\]\((?:[^()]|\([^)]*\))*\)/g, '')
    .replace(/[\s>›»/|•·,\-–—*]+/g, '')
    .trim();
  return withoutLinks.length === 0 && /\]\(/.test(line);
}

const LINK = /!?\[[^\]]*\]\((?:[^()]|\([^)]*\))*\)/g;

/** Links joined by `>`, `›`, `»` or `/`, possibly ending with the current page's short plain title. */
const isBreadcrumb = (line: string) => {
  const links = line.match(LINK) ?? [];
  if (links.length === 0) return false;
  const skeleton = line.replace(LINK, '\uE000').trim();
  if (!/^(\uE000\s*[>›»/]\s*)+(\uE000|[^\uE000>›»/[\]()]{1,40})$/.test(skeleton)) return false;
  const tail =
    skeleton
      .split(/[>›»/]/)
      .pop()
      ?.trim() ?? '';
  return links.length >= 2 || (tail !== '\uE000' && tail.split(/\s+/).length <= 6);
};
const isPager = (line: string) =>
  isLinkOnly(line) && /\[[^\]]*\b(previous|next|older|newer)\b[^\]]*\]/i.test(line);
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
      (BOILERPLATE_LINE.some((pattern) => pattern.test(line)) ||
        isBreadcrumb(line) ||
        isShareBar(line) ||
        isPager(line))
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
