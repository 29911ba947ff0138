import type { Caller } from '@quarry/crawl';

import type { CheckRecord, MonitorRecord, PageResult, PreviousPage } from '../monitor.types';
import type { CheckRunnerDeps } from './check-runner.deps';
import { errorPage, pageFromDocument, pageKey, removedPage } from './page-results.util';
import type { TargetPlan } from './target-plan';
import { collectionIds, type TargetState } from './target-state.util';

const PAGE_BATCH = 500;

/** The pages of one target's collection compared with the target's previous sightings (new, changed, removed, errors). */
export class CollectTargetPagesUseCase {
  constructor(private readonly deps: CheckRunnerDeps) {}

  async execute(
    check: CheckRecord,
    monitor: MonitorRecord,
    plan: TargetPlan,
    state: TargetState,
    contents: Map<PageResult, string>,
  ): Promise<PageResult[]> {
    const previous = await this.deps.monitors.previousPages(monitor.id, plan.targetId, check.id);
    const expected =
      plan.type === 'scrape'
        ? (plan.batch?.urls ?? [])
        : plan.type === 'search' && state.type === 'search'
          ? (state.resultUrls ?? [])
          : [];
    const collectionId = collectionIds(state)[0];
    if (!collectionId) {
      if (state.error) {
        const urls = plan.type === 'crawl' && plan.crawl ? [plan.crawl.url] : expected;
        return (urls.length ? urls : [describe(plan)]).map((url) =>
          errorPage(plan.targetId, url, state.error as string, previous.get(pageKey(url))),
        );
      }
      return [];
    }
    const pages: PageResult[] = [];
    const covered = new Set<string>();
    for (let after = 0; ;) {
      const batch = await this.deps.collections.documentsAfter(collectionId, after, PAGE_BATCH);
      for (const entry of batch) {
        const page = pageFromDocument(
          plan.targetId,
          entry.document,
          previous.get(pageKey(entry.document.metadata.sourceURL ?? '')),
          plan.mode,
        );
        pages.push(page);
        covered.add(page.urlKey);
        if (entry.document.markdown) contents.set(page, entry.document.markdown);
        after = entry.seq;
      }
      if (batch.length < PAGE_BATCH) break;
    }
    const kind = plan.type === 'crawl' ? 'crawl' : 'batch_scrape';
    const caller: Caller = { teamId: monitor.teamId, zeroDataRetention: false, canOverrideRobots: false };
    const failures = await this.deps.collections
      .errors(caller, kind, collectionId)
      .catch(() => ({ errors: [], robotsBlocked: [] as string[] }));
    for (const failure of failures.errors) {
      const key = pageKey(failure.url);
      covered.add(key);
      const gone = /\bHTTP (404|410)\b/.exec(failure.error);
      const seen = previous.get(key);
      if (gone && seen) pages.push(removedPage(plan.targetId, seen, Number(gone[1]), failure.error));
      else
        pages.push(errorPage(plan.targetId, failure.url, failure.error, seen, gone ? Number(gone[1]) : null));
    }
    for (const url of failures.robotsBlocked) {
      covered.add(pageKey(url));
      pages.push(errorPage(plan.targetId, url, 'Blocked by robots.txt', previous.get(pageKey(url))));
    }
    const invalid = new Set((state.type !== 'crawl' ? (state.invalidURLs ?? []) : []).map(pageKey));
    for (const url of expected) {
      const key = pageKey(url);
      if (covered.has(key)) continue;
      covered.add(key);
      pages.push(
        errorPage(
          plan.targetId,
          url,
          invalid.has(key) ? 'Invalid URL' : 'The page was not scraped',
          previous.get(key),
        ),
      );
    }
    if (plan.type === 'crawl') {
      const job = await this.deps.jobs.find(collectionId);
      if (job?.status === 'completed') pages.push(...gonePages(plan.targetId, previous, covered));
      else if (pages.length === 0 && job?.error)
        pages.push(
          errorPage(
            plan.targetId,
            plan.crawl?.url ?? '',
            job.error.message,
            previous.get(pageKey(plan.crawl?.url ?? '')),
          ),
        );
    }
    return pages;
  }
}

/** Pages an earlier check saw (and that were not gone already) that this crawl no longer reached. */
function gonePages(
  targetId: string,
  previous: Map<string, PreviousPage>,
  covered: Set<string>,
): PageResult[] {
  return [...previous.values()]
    .filter((page) => page.status !== 'removed' && !covered.has(page.urlKey))
    .map((page) => removedPage(targetId, page));
}

function describe(plan: TargetPlan): string {
  return plan.type === 'search'
    ? `search:${plan.searches?.map((search) => search.query).join(' | ') ?? ''}`
    : plan.targetId;
}
