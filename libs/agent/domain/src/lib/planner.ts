import { PRICES } from '@quarry/billing';
import { isAcceptableHttpUrl, urlKey } from '@quarry/contracts';
import { terms } from '@quarry/scrape/formats';

import type { ThreadTurn } from './thread';

export type Effort = 'low' | 'medium' | 'high';

export interface AgentLimits {
  /** Pages a run reads at most. */
  maxPages: number;
  /** Pages read in parallel by one round of sub-agents. */
  pagesPerRound: number;
  /** Read rounds (given URLs and index hits first, then followed links). */
  maxRounds: number;
}

export function limitsFor(effort: Effort | undefined, maxPages: number): AgentLimits {
  const shape = {
    low: { pagesPerRound: 3, maxRounds: 1 },
    medium: { pagesPerRound: 6, maxRounds: 2 },
    high: { pagesPerRound: 10, maxRounds: 3 },
  }[effort ?? 'medium'];
  return { maxPages, ...shape };
}

/** Credits of the final extraction (the json format's surcharge in the one price table). */
export const EXTRACTION_CREDITS = PRICES.jsonExtraction;
/** Credits a page read is expected to cost before it is read (its actual price is known afterwards). */
export const PAGE_CREDITS = PRICES.page;

export interface Candidate {
  url: string;
  /** `thread`: read by an earlier turn of the run's thread; `web`: a result of the web search provider. */
  reason: 'given' | 'index' | 'link' | 'thread' | 'web';
  score: number;
}

export interface PageRecord {
  url: string;
  taskId: string;
  jobId: string;
  round: number;
  ok: boolean;
  credits: number;
  title?: string;
  statusCode?: number;
  error?: string;
}

/** What the planner has recorded so far; stored with the run, so a restarted orchestrator resumes from it. */
export interface PlannerMemory {
  strategy: 'model' | 'deterministic';
  searched: boolean;
  /** Read rounds started. */
  round: number;
  /** Read rounds whose results are in `pages`. */
  absorbedRound: number;
  candidates: Candidate[];
  pages: PageRecord[];
  /** URL keys scheduled or read. */
  tried: string[];
  /** Whether the pages read so far answer the task (recorded after each round). */
  satisfied?: boolean;
  /** A follow-up turn of a thread: the earlier turns (prompt and reply), oldest first. */
  conversation?: ThreadTurn[];
}

export function initialMemory(
  urls: readonly string[],
  strategy: PlannerMemory['strategy'],
  thread?: { urls: readonly string[]; conversation: ThreadTurn[] },
): PlannerMemory {
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  const add = (url: string, reason: Candidate['reason']) => {
    if (!isAcceptableHttpUrl(url.trim())) return;
    const key = urlKey(url);
    if (seen.has(key)) return;
    seen.add(key);
    candidates.push({ url, reason, score: 1 });
  };
  for (const url of urls) add(url, 'given');
  // A follow-up turn starts from the pages its thread already worked with.
  for (const url of thread?.urls ?? []) add(url, 'thread');
  return {
    strategy,
    searched: false,
    round: 0,
    absorbedRound: 0,
    candidates,
    pages: [],
    tried: [],
    ...(thread?.conversation.length ? { conversation: thread.conversation } : {}),
  };
}

export type Decision =
  | { kind: 'search_index'; query: string }
  | { kind: 'read'; urls: Candidate[]; reasoning?: string }
  | { kind: 'extract'; reasoning?: string }
  | { kind: 'finish'; outcome: 'refused' | 'credit_limit_reached' | 'failed'; message?: string };

export interface PlanInput {
  memory: PlannerMemory;
  prompt: string;
  strict: boolean;
  limits: AgentLimits;
  creditsSpent: number;
  maxCredits?: number;
  /** True when what was read already answers the task (every schema field found, or a matching passage). */
  satisfied: boolean;
}

/**
 * The deterministic strategy (no language model): search the team's index, read the given URLs
 * and index hits, follow the most relevant same-site links while the task is not yet answered,
 * then extract. Credit checks come first: an action that does not fit `maxCredits` ends the run.
 */
export function planNext(input: PlanInput): Decision {
  const { memory, limits } = input;
  if (!memory.searched && !input.strict) return { kind: 'search_index', query: input.prompt };
  const readable = memory.candidates.filter((candidate) => !memory.tried.includes(urlKey(candidate.url)));
  if (memory.pages.length === 0 && readable.length === 0) {
    return {
      kind: 'finish',
      outcome: 'refused',
      message: input.strict
        ? 'The agent declined the task: no URLs were given to constrain it to.'
        : 'The agent declined the task: no URLs were given and no page of this team’s index matches the prompt, so there is nothing to read.',
    };
  }
  const wantMore = !input.satisfied || memory.pages.length === 0;
  if (
    wantMore &&
    readable.length > 0 &&
    memory.round < limits.maxRounds &&
    memory.pages.length < limits.maxPages
  ) {
    const room = Math.min(limits.pagesPerRound, limits.maxPages - memory.pages.length, readable.length);
    const affordable =
      input.maxCredits === undefined
        ? room
        : Math.floor((input.maxCredits - input.creditsSpent) / PAGE_CREDITS);
    if (affordable <= 0) return { kind: 'finish', outcome: 'credit_limit_reached' };
    return { kind: 'read', urls: readable.slice(0, Math.min(room, affordable)) };
  }
  if (!memory.pages.some((page) => page.ok)) {
    const reasons = [...new Set(memory.pages.map((page) => page.error).filter(Boolean))]
      .slice(0, 3)
      .join('; ');
    return {
      kind: 'finish',
      outcome: 'failed',
      message: `None of the ${memory.pages.length} page(s) the agent tried could be read${reasons ? ` (${reasons})` : ''}.`,
    };
  }
  if (input.maxCredits !== undefined && input.creditsSpent + EXTRACTION_CREDITS > input.maxCredits)
    return { kind: 'finish', outcome: 'credit_limit_reached' };
  return { kind: 'extract' };
}

/** Records a scheduled read round: the URLs leave the candidates and count as tried. */
export function startRound(memory: PlannerMemory, urls: readonly Candidate[]): PlannerMemory {
  const keys = new Set(urls.map((candidate) => urlKey(candidate.url)));
  return {
    ...memory,
    round: memory.round + 1,
    candidates: memory.candidates.filter((candidate) => !keys.has(urlKey(candidate.url))),
    tried: [...memory.tried, ...keys],
  };
}

export function addIndexHits(
  memory: PlannerMemory,
  hits: readonly { url: string; score: number }[],
  reason: 'index' | 'web' = 'index',
): PlannerMemory {
  const known = new Set([...memory.tried, ...memory.candidates.map((candidate) => urlKey(candidate.url))]);
  const added: Candidate[] = [];
  for (const hit of hits) {
    // Only web pages can be read (an index or search hit that is a file name or an error page cannot).
    if (!isAcceptableHttpUrl(hit.url.trim())) continue;
    const key = urlKey(hit.url);
    if (known.has(key)) continue;
    known.add(key);
    added.push({ url: hit.url, reason, score: hit.score });
  }
  return { ...memory, searched: true, candidates: [...memory.candidates, ...added] };
}

/**
 * Absorbs a finished round: its pages join `pages`, and (unless constrained to the given URLs)
 * links of those pages become candidates, ranked by how many prompt terms their URL carries and
 * kept on the sites the run already reads.
 */
export function absorbRound(
  memory: PlannerMemory,
  round: number,
  results: readonly (PageRecord & { links: readonly string[] })[],
  options: { prompt: string; strict: boolean; maxCandidates?: number },
): PlannerMemory {
  if (round <= memory.absorbedRound) return memory;
  const pages = [...memory.pages, ...results.map(({ links: _links, ...page }) => page)];
  let candidates = memory.candidates;
  if (!options.strict) {
    const hosts = new Set(pages.map((page) => hostOf(page.url)).filter(Boolean));
    const known = new Set([...memory.tried, ...candidates.map((candidate) => urlKey(candidate.url))]);
    const promptTerms = new Set(terms(options.prompt));
    const links: Candidate[] = [];
    for (const result of results) {
      for (const link of result.links) {
        if (
          !isAcceptableHttpUrl(link) ||
          /\.(?:png|jpe?g|gif|svg|webp|ico|css|js|zip|gz|mp4|mp3|woff2?)(?:$|\?)/i.test(link)
        )
          continue;
        const key = urlKey(link);
        if (known.has(key) || !hosts.has(hostOf(link))) continue;
        known.add(key);
        links.push({ url: link, reason: 'link', score: relevance(link, promptTerms) });
      }
    }
    candidates = [...candidates, ...links.filter((link) => link.score > 0)]
      .sort((a, b) => rank(b) - rank(a))
      .slice(0, options.maxCandidates ?? 50);
  }
  return { ...memory, absorbedRound: round, pages, candidates };
}

const rank = (candidate: Candidate) =>
  (candidate.reason === 'given' ? 10 : candidate.reason === 'thread' ? 5 : 0) + candidate.score;

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/** Share of a URL's path words that are prompt terms, plus a little for each match. */
export function relevance(url: string, promptTerms: ReadonlySet<string>): number {
  let path: string;
  try {
    const parsed = new URL(url);
    path = `${parsed.pathname} ${parsed.search}`;
  } catch {
    return 0;
  }
  const words = terms(path.replace(/[-_/.?=&+]+/g, ' '));
  if (words.length === 0) return 0;
  const hits = words.filter((word) => promptTerms.has(word)).length;
  return hits === 0 ? 0 : hits / words.length + 0.1 * hits;
}
