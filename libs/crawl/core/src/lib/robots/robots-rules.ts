/** A group's rule: its path pattern (percent-escapes upper-cased, `*` and a final `$` kept) and verdict. */
interface Rule {
  pattern: string;
  allow: boolean;
}

/** The verdict of the most specific matching rule so far (length of its pattern; -1: none). */
interface Verdict {
  length: number;
  allow: boolean;
}

/**
 * The robots.txt of one origin (`scheme://host:port`), as seen by one user-agent token (RFC 9309):
 * the group naming the token with a rule (case-insensitive, several groups combined), else the `*`
 * group; the
 * longest matching pattern decides, `Allow` winning a tie. A missing, unreadable or erroring
 * robots.txt allows everything (the reference behaves the same way).
 *
 * Rules are indexed so that a URL costs one lookup per distinct pattern length, not one match per
 * rule: a 500 KiB file holds 25,000 rules, and a crawl asks about every link of every page (a
 * scan of every rule took 0.6 ms per link, 12 s for one page of 20,000 links on the event loop).
 */
export class RobotsRules {
  private readonly governs: string | undefined;

  private constructor(
    readonly origin: string,
    private readonly index: RuleIndex | undefined,
    private readonly sitemapUrls: string[],
  ) {
    this.governs = URL.canParse(origin) ? new URL(origin).origin : undefined;
  }

  static allowAll(origin: string, _userAgent = '*'): RobotsRules {
    return new RobotsRules(origin, undefined, []);
  }

  static parse(origin: string, text: string, userAgent: string): RobotsRules {
    const { groups, sitemaps } = parseRobotsTxt(text);
    const token = productToken(userAgent);
    const rules = groups.get(token) ?? groups.get('*') ?? [];
    return new RobotsRules(origin, rules.length ? new RuleIndex(rules) : undefined, sitemaps);
  }

  /** Whether `url` may be fetched: always for a URL of another origin, which this file does not govern. */
  isAllowed(url: string): boolean {
    if (!this.index || !URL.canParse(url)) return true;
    const parsed = new URL(url);
    if (parsed.origin !== this.governs) return true;
    return this.index.allows(upperEscapes(parsed.pathname + parsed.search));
  }

  sitemaps(): string[] {
    return [...this.sitemapUrls];
  }
}

/** The product token of a user agent as robots.txt groups name it: `QuarryBot/1.2` → `quarrybot`. */
function productToken(userAgent: string): string {
  return userAgent.toLowerCase().split('/')[0].trim();
}

/** Groups (by lower-cased product token, groups of the same token combined) and sitemap URLs of a robots.txt. */
function parseRobotsTxt(text: string): { groups: Map<string, Rule[]>; sitemaps: string[] } {
  const groups = new Map<string, Rule[]>();
  const sitemaps: string[] = [];
  let agents: string[] = [];
  let readingAgents = false;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const hash = raw.indexOf('#');
    const line = hash >= 0 ? raw.slice(0, hash) : raw;
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (!key) continue;
    if (key === 'user-agent') {
      if (!readingAgents) agents = [];
      readingAgents = true;
      if (value) agents.push(productToken(value));
      continue;
    }
    readingAgents = false;
    if (key === 'allow' || key === 'disallow') {
      // A group exists once it states a rule, even an empty `Disallow:` (allow all); a user-agent
      // line followed by no rule leaves that agent to the `*` group.
      for (const agent of agents) if (!groups.has(agent)) groups.set(agent, []);
      if (!value) continue;
      const rule = { pattern: normalisePattern(value), allow: key === 'allow' };
      for (const agent of agents) groups.get(agent)?.push(rule);
    } else if (key === 'sitemap' && value) sitemaps.push(value);
  }
  return { groups, sitemaps };
}

/** A pattern in the form paths are compared in: characters escaped as in a URL, escapes upper-cased. */
function normalisePattern(pattern: string): string {
  try {
    return upperEscapes(encodeURI(pattern).replace(/%25/g, '%'));
  } catch {
    return pattern; // a lone surrogate: kept as written
  }
}

function upperEscapes(path: string): string {
  return path.replace(/%[0-9a-fA-F]{2}/g, (escape) => escape.toUpperCase());
}

/**
 * The rules of one group, indexed by their literal head: a plain pattern by its whole text (a
 * prefix of the path), one ending in `$` by its text (the whole path), one with `*` by the text
 * before its first `*` — so only the rules whose head the path starts with are matched in full.
 */
class RuleIndex {
  /** Plain patterns: length → pattern → allow (a pattern listed both ways allows). */
  private readonly prefixes = new Map<number, Map<string, boolean>>();
  /** `…$` patterns without `*`: the path itself → allow. */
  private readonly exact = new Map<string, boolean>();
  /** Patterns with `*`: head length → head → rules, longest pattern first. */
  private readonly wildcards = new Map<number, Map<string, Rule[]>>();

  constructor(rules: readonly Rule[]) {
    for (const rule of rules) {
      const star = rule.pattern.indexOf('*');
      const anchored = rule.pattern.endsWith('$');
      if (star < 0 && !anchored) {
        add(this.prefixes, rule.pattern.length, rule.pattern, rule.allow);
      } else if (star < 0) {
        const path = rule.pattern.slice(0, -1);
        this.exact.set(path, (this.exact.get(path) ?? false) || rule.allow);
      } else {
        const head = rule.pattern.slice(0, star);
        let byHead = this.wildcards.get(head.length);
        if (!byHead) this.wildcards.set(head.length, (byHead = new Map()));
        const list = byHead.get(head);
        if (list) list.push(rule);
        else byHead.set(head, [rule]);
      }
    }
    for (const byHead of this.wildcards.values())
      for (const list of byHead.values()) list.sort((a, b) => b.pattern.length - a.pattern.length);
  }

  allows(path: string): boolean {
    const best: Verdict = { length: -1, allow: true };
    for (const [length, patterns] of this.prefixes) {
      if (length > path.length) continue;
      const allow = patterns.get(path.slice(0, length));
      if (allow !== undefined) consider(best, length, allow);
    }
    const exact = this.exact.get(path);
    if (exact !== undefined) consider(best, path.length + 1, exact);
    for (const [length, byHead] of this.wildcards) {
      if (length > path.length) continue;
      for (const rule of byHead.get(path.slice(0, length)) ?? []) {
        if (rule.pattern.length < best.length) break; // the rest are shorter still
        if (matches(rule.pattern, path)) consider(best, rule.pattern.length, rule.allow);
      }
    }
    return best.allow;
  }
}

function add(
  index: Map<number, Map<string, boolean>>,
  length: number,
  pattern: string,
  allow: boolean,
): void {
  let patterns = index.get(length);
  if (!patterns) index.set(length, (patterns = new Map()));
  patterns.set(pattern, (patterns.get(pattern) ?? false) || allow);
}

function consider(best: Verdict, length: number, allow: boolean): void {
  if (length > best.length || (length === best.length && allow && !best.allow)) {
    best.length = length;
    best.allow = allow;
  }
}

/**
 * Whether a pattern with `*` (any run of characters) and an optional final `$` (end of the path)
 * matches the start of `path`: greedy with backtracking to the last `*`, at most
 * pattern × path steps and no regular expression (a pattern cannot make it backtrack further).
 */
function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  let p = 0;
  let s = 0;
  let starAt = -1;
  let resumeAt = 0;
  while (p < body.length || (anchored && s < path.length)) {
    if (p < body.length && body[p] === '*') {
      starAt = p;
      resumeAt = s;
      p += 1;
    } else if (p < body.length && s < path.length && body[p] === path[s]) {
      p += 1;
      s += 1;
    } else if (p === body.length && !anchored) {
      return true;
    } else if (starAt >= 0 && resumeAt < path.length) {
      resumeAt += 1;
      s = resumeAt;
      p = starAt + 1;
    } else {
      return false;
    }
  }
  return true;
}
