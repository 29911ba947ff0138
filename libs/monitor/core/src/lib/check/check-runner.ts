import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  AppError,
  batchScrapeRequestSchema,
  type MonitorCheckStatus,
  type MonitorTargetResult,
  type ScrapeDocument,
  type ScrapeOptions,
} from '@quarry/contracts';
import type { Caller, CollectionService, SearchService } from '@quarry/crawl';
import { isTerminal, type JobRepository } from '@quarry/jobs';
import type { Logger } from 'pino';
import type { CheckRecord, MonitorRecord, PageResult, PreviousPage } from '../monitor.types';
import type { CheckNotifier, FinishedCheck } from '../notify/check-notifier';
import type { MonitorRepository } from '../persistence/monitor.repository';
import type { ChangeJudge } from './change-judge';
import { errorPage, pageFromDocument, pageKey, removedPage, summarise } from './page-results.util';
import { planTarget, type TargetPlan } from './target-plan';

export interface CheckRunnerSettings {
  /** Lease on a running check; renewed while it waits. */
  leaseMs: number;
  /** A check still waiting after this long cancels its collections and reports what it has. */
  timeoutMs: number;
  /** How often the collections' status is read while waiting. */
  pollMs: number;
}

export interface CheckRunnerDeps {
  monitors: MonitorRepository;
  collections: CollectionService;
  search: SearchService;
  jobs: JobRepository;
  judge: ChangeJudge;
  notifier: CheckNotifier;
  settings: CheckRunnerSettings;
  logger: Logger;
}

type TargetState = MonitorTargetResult & { done?: boolean };
type SearchState = Extract<MonitorTargetResult, { type: 'search' }> & { done?: boolean };

const PAGE_BATCH = 500;
const noScrape = (): Promise<ScrapeDocument> =>
  Promise.reject(new Error('search results are scraped by the monitor batch'));

/**
 * Runs one monitor check (the `monitor.checks` handler): takes the check's lease, starts one
 * collection per target through the platform's crawl/batch path (scrape → batch of its URLs,
 * crawl → crawl, search → searches, then a batch of the results), every page scraped with change
 * tracking tagged per monitor target; waits for them, compares pages with the target's previous
 * sightings, judges changes, and stores the result, credits and webhook events in one transaction.
 * Re-running a check is safe: collections are started with idempotency keys derived from the
 * check, and only the lease holder can finish it, once.
 */
export class CheckRunner {
  private readonly owner = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;

  constructor(private readonly deps: CheckRunnerDeps) {}

  async run(checkId: string): Promise<void> {
    const { monitors, settings } = this.deps;
    const claimed = await monitors.claimCheck(checkId, this.owner, settings.leaseMs);
    if (!claimed) return;
    const monitor = await monitors.find(claimed.monitorId);
    if (!monitor) return; // deleted meanwhile: its checks went with it
    let plans: TargetPlan[];
    try {
      plans = monitor.targets.map((target) => planTarget(monitor.id, target));
    } catch (error) {
      await this.finishFailed(
        claimed,
        monitor,
        `The monitor's targets could not be planned: ${(error as Error).message}`,
      );
      return;
    }
    const estimated = plans.reduce((sum, plan) => sum + plan.estimatedCredits, 0);
    if (claimed.status === 'queued' && !(await monitors.markRunning(checkId, this.owner, estimated))) return;
    const startedAt = claimed.startedAt ?? new Date();
    try {
      const states = await this.start(claimed, monitor, plans);
      if (!states) return;
      const waited = await this.waitForCollections(checkId, monitor.teamId, states, startedAt);
      if (waited === 'lost') return;
      await this.complete(claimed, monitor, plans, states, waited === 'timed-out');
    } catch (error) {
      this.deps.logger.error({ err: error, checkId, monitorId: monitor.id }, 'monitor check failed');
      await this.finishFailed(claimed, monitor, `The check failed: ${(error as Error).message}`);
    }
  }

  // --- starting the targets' work -------------------------------------------------------------------

  private async start(
    check: CheckRecord,
    monitor: MonitorRecord,
    plans: TargetPlan[],
  ): Promise<TargetState[] | undefined> {
    const known = new Map(check.targetResults.map((result) => [result.targetId, result as TargetState]));
    const states: TargetState[] = plans.map(
      (plan) => known.get(plan.targetId) ?? ({ targetId: plan.targetId, type: plan.type } as TargetState),
    );
    const caller: Caller = {
      teamId: monitor.teamId,
      apiKeyId: monitor.apiKeyId ?? undefined,
      zeroDataRetention: false,
      concurrencyLimit: await this.deps.monitors.teamConcurrency(monitor.teamId),
      canOverrideRobots: monitor.robotsOverride,
    };
    for (const [index, plan] of plans.entries()) {
      if (started(states[index]) || states[index].error) continue;
      try {
        if (plan.type === 'search' && !(states[index] as SearchState).searchCompleted) {
          // The searches are recorded before their results are scraped, so a re-run does not search (and charge) again.
          states[index] = await this.runSearches(caller, plan, states[index] as SearchState);
          if (!(await this.deps.monitors.saveTargetResults(check.id, this.owner, states))) return undefined;
        }
        states[index] = await this.startTarget(check, caller, plan, states[index]);
      } catch (error) {
        states[index] = {
          ...states[index],
          error: error instanceof Error ? error.message : String(error),
        } as TargetState;
      }
      if (!(await this.deps.monitors.saveTargetResults(check.id, this.owner, states))) return undefined;
    }
    return states;
  }

  private async startTarget(
    check: CheckRecord,
    caller: Caller,
    plan: TargetPlan,
    state: TargetState,
  ): Promise<TargetState> {
    const { collections } = this.deps;
    if (plan.type === 'scrape' && plan.batch) {
      const key = idempotencyKey(check.id, plan.targetId, 'batch');
      const id = await this.startOnce(caller.teamId, key, async () => {
        const response = await collections.startBatch(
          caller,
          plan.batch as NonNullable<TargetPlan['batch']>,
          key,
        );
        return { id: response.id, invalidURLs: response.invalidURLs };
      });
      return {
        ...state,
        type: 'scrape',
        batchId: id.id,
        expectedJobs: [id.id],
        ...(id.invalidURLs ? { invalidURLs: id.invalidURLs } : {}),
      } as TargetState;
    }
    if (plan.type === 'crawl' && plan.crawl) {
      const key = idempotencyKey(check.id, plan.targetId, 'crawl');
      const id = await this.startOnce(caller.teamId, key, async () => ({
        id: (await collections.startCrawl(caller, plan.crawl as NonNullable<TargetPlan['crawl']>, key)).id,
      }));
      return { ...state, type: 'crawl', crawlId: id.id } as TargetState;
    }
    // Search: one batch of the result URLs.
    const search = state as SearchState;
    if (!search.resultUrls?.length) return { ...search, done: true };
    const batch = batchScrapeRequestSchema.parse({
      urls: search.resultUrls,
      ...(plan.resultOptions as ScrapeOptions),
      ignoreInvalidURLs: true,
      origin: 'monitor',
    });
    const key = idempotencyKey(check.id, plan.targetId, 'results');
    const id = await this.startOnce(caller.teamId, key, async () => {
      const response = await collections.startBatch(caller, batch, key);
      return { id: response.id, invalidURLs: response.invalidURLs };
    });
    return { ...search, batchId: id.id, ...(id.invalidURLs ? { invalidURLs: id.invalidURLs } : {}) };
  }

  /** Runs every query of a search target (charged as searches) and keeps the distinct result URLs. */
  private async runSearches(caller: Caller, plan: TargetPlan, state: SearchState): Promise<SearchState> {
    const seen = new Set<string>();
    const urls: string[] = [];
    const searchJobIds: string[] = [];
    let searchCredits = 0;
    for (const request of plan.searches ?? []) {
      const response = await this.deps.search.search(
        { teamId: caller.teamId, apiKeyId: caller.apiKeyId, zeroDataRetention: false },
        request,
        noScrape,
      );
      searchJobIds.push(response.id);
      searchCredits += response.creditsUsed;
      for (const result of response.data.web ?? []) {
        const key = pageKey(result.url);
        if (seen.has(key)) continue;
        seen.add(key);
        urls.push(result.url);
      }
    }
    return {
      ...state,
      searchCompleted: true,
      resultCount: urls.length,
      searchCredits,
      searchJobIds,
      resultUrls: urls,
    };
  }

  /** Starts a collection, or finds the one an earlier attempt of this check started with the same key. */
  private async startOnce(
    teamId: string,
    key: string,
    start: () => Promise<{ id: string; invalidURLs?: string[] }>,
  ): Promise<{ id: string; invalidURLs?: string[] }> {
    try {
      return await start();
    } catch (error) {
      if (error instanceof AppError && error.code === 'CONFLICT') {
        const existing = await this.deps.monitors.jobByIdempotencyKey(teamId, key);
        if (existing) return { id: existing };
      }
      throw error;
    }
  }

  // --- waiting ----------------------------------------------------------------------------------

  private async waitForCollections(
    checkId: string,
    teamId: string,
    states: TargetState[],
    startedAt: Date,
  ): Promise<'done' | 'timed-out' | 'lost'> {
    const { jobs, monitors, settings } = this.deps;
    const ids = states.flatMap(collectionIds);
    for (;;) {
      const records = await Promise.all(ids.map((id) => jobs.find(id)));
      if (records.every((job) => !job || isTerminal(job.status))) return 'done';
      if (Date.now() - startedAt.getTime() > settings.timeoutMs) {
        await this.cancelRunning(
          teamId,
          states,
          records.filter((job) => job && !isTerminal(job.status)).map((job) => job?.id as string),
        );
        return 'timed-out';
      }
      if (!(await monitors.renewLease(checkId, this.owner, settings.leaseMs))) return 'lost';
      await new Promise((resolve) => setTimeout(resolve, settings.pollMs));
    }
  }

  private async cancelRunning(teamId: string, states: TargetState[], jobIds: string[]): Promise<void> {
    const caller: Caller = { teamId, zeroDataRetention: false, canOverrideRobots: false };
    for (const state of states) {
      for (const id of collectionIds(state)) {
        if (!jobIds.includes(id)) continue;
        await this.deps.collections
          .cancel(caller, state.type === 'crawl' ? 'crawl' : 'batch_scrape', id)
          .catch(() => undefined);
      }
    }
  }

  // --- comparing and finishing ---------------------------------------------------------------------

  private async complete(
    check: CheckRecord,
    monitor: MonitorRecord,
    plans: TargetPlan[],
    states: TargetState[],
    timedOut: boolean,
  ): Promise<void> {
    const pages: PageResult[] = [];
    const contents = new Map<PageResult, string>();
    for (const [index, plan] of plans.entries()) {
      pages.push(...(await this.targetPages(check, monitor, plan, states[index], contents)));
    }
    await this.judge(check, monitor, plans, states, pages, contents);
    const summary = summarise(pages);
    const targetErrors = states.filter((state) => state.error).map((state) => state.error as string);
    let status: MonitorCheckStatus = 'completed';
    let error: string | null = null;
    if (timedOut) {
      status = pages.some((page) => page.status !== 'error') ? 'partial' : 'failed';
      error = `The check did not finish within ${Math.round(this.deps.settings.timeoutMs / 1000)} s; unfinished work was cancelled`;
    } else if (summary.error > 0 || targetErrors.length > 0) {
      const succeeded = pages.some((page) => page.status !== 'error');
      status = succeeded ? 'partial' : 'failed';
      error = targetErrors[0] ?? pages.find((page) => page.error)?.error ?? null;
    }
    const jobIds = states.flatMap((state) => [
      ...collectionIds(state),
      ...(state.type === 'search' ? (state.searchJobIds ?? []) : []),
    ]);
    const actualCredits = await this.deps.monitors.creditsCharged(jobIds);
    const finished: FinishedCheck = { monitor, checkId: check.id, status, summary, pages, error };
    const events = this.deps.notifier.webhookEvents(finished);
    const notificationStatus = this.deps.notifier.initialStatus(finished, events.length);
    const stored = await this.deps.monitors.finish({
      checkId: check.id,
      owner: this.owner,
      status,
      summary,
      pages,
      targetResults: states.map(({ done: _done, ...state }) => state as MonitorTargetResult),
      actualCredits,
      billingStatus: actualCredits > 0 ? 'confirmed' : 'released',
      notificationStatus,
      error,
      webhook: monitor.webhook,
      events,
    });
    if (!stored) return;
    this.deps.logger.info(
      { checkId: check.id, monitorId: monitor.id, status, summary, credits: actualCredits },
      'monitor check finished',
    );
    const emailed = await this.deps.notifier.sendCheckEmails(finished, notificationStatus);
    if (emailed !== notificationStatus) await this.deps.monitors.updateNotificationStatus(check.id, emailed);
  }

  private async targetPages(
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

  /** Judgments of changed and removed pages (and of new search results) when the monitor's judge is on. */
  private async judge(
    check: CheckRecord,
    monitor: MonitorRecord,
    plans: TargetPlan[],
    states: TargetState[],
    pages: PageResult[],
    contents: Map<PageResult, string>,
  ): Promise<void> {
    if (!monitor.judgeEnabled) return;
    const searchTargets = new Set(
      plans.filter((plan) => plan.type === 'search').map((plan) => plan.targetId),
    );
    const judged = new Map<string, { count: number; matches: number; degraded?: string }>();
    for (const page of pages) {
      const wanted =
        page.status === 'changed' ||
        page.status === 'removed' ||
        (page.status === 'new' && searchTargets.has(page.targetId));
      if (!wanted) continue;
      const verdict = await this.deps.judge.judge({
        teamId: monitor.teamId,
        checkId: check.id,
        url: page.url,
        status: page.status,
        goal: monitor.goal,
        diffText: page.diff?.text,
        fields: page.diff?.text
          ? undefined
          : (page.diff?.json as Record<string, { previous: unknown; current: unknown }> | undefined),
        content: page.status === 'new' ? contents.get(page) : undefined,
      });
      page.judgment = verdict.judgment;
      const stats = judged.get(page.targetId) ?? { count: 0, matches: 0 };
      stats.count += 1;
      if (verdict.judgment.meaningful) stats.matches += 1;
      if (verdict.degraded) stats.degraded = verdict.degradedReason;
      judged.set(page.targetId, stats);
    }
    for (const state of states) {
      if (state.type !== 'search') continue;
      const stats = judged.get(state.targetId) ?? { count: 0, matches: 0 };
      state.resultsJudged = stats.count;
      state.matches = stats.matches;
      state.judgeDegraded = !this.deps.judge.usesModel || !!stats.degraded;
      state.degradedReason =
        stats.degraded ?? (this.deps.judge.usesModel ? null : 'no language model configured');
      state.judgeCredits = 0;
      state.summary = `${stats.matches} of ${stats.count} judged result(s) match the goal`;
    }
  }

  private async finishFailed(check: CheckRecord, monitor: MonitorRecord, error: string): Promise<void> {
    const { monitors } = this.deps;
    if (check.status === 'queued') await monitors.markRunning(check.id, this.owner, 0);
    const summary = summarise([]);
    const finished: FinishedCheck = {
      monitor,
      checkId: check.id,
      status: 'failed',
      summary,
      pages: [],
      error,
    };
    const events = this.deps.notifier.webhookEvents(finished);
    const jobIds = check.targetResults.flatMap((state) => collectionIds(state as TargetState));
    const actualCredits = await monitors.creditsCharged(jobIds);
    await monitors.finish({
      checkId: check.id,
      owner: this.owner,
      status: 'failed',
      summary,
      pages: [],
      targetResults: check.targetResults,
      actualCredits,
      billingStatus: actualCredits > 0 ? 'confirmed' : 'released',
      notificationStatus: this.deps.notifier.initialStatus(finished, events.length),
      error,
      webhook: monitor.webhook,
      events,
    });
  }
}

function started(state: TargetState): boolean {
  if (state.type === 'scrape') return !!state.batchId;
  if (state.type === 'crawl') return !!state.crawlId;
  return (
    !!state.batchId ||
    state.done === true ||
    (state.searchCompleted === true && (state.resultUrls?.length ?? 0) === 0)
  );
}

function collectionIds(state: TargetState): string[] {
  if (state.type === 'scrape') return state.batchId ? [state.batchId] : [];
  if (state.type === 'crawl') return state.crawlId ? [state.crawlId] : [];
  return state.batchId ? [state.batchId] : [];
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

/** A UUID derived from the check and target: the same attempt always asks for the same collection. */
function idempotencyKey(checkId: string, targetId: string, purpose: string): string {
  const hex = createHash('sha256').update(`monitor:${checkId}:${targetId}:${purpose}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
