import {
  AppError,
  batchScrapeRequestSchema,
  type ScrapeDocument,
  type ScrapeOptions,
} from '@quarry/contracts';
import type { Caller } from '@quarry/crawl';

import type { CheckRecord, MonitorRecord } from '../monitor.types';
import type { CheckRunnerDeps } from './check-runner.deps';
import { pageKey } from './page-results.util';
import type { TargetPlan } from './target-plan';
import { idempotencyKey, type SearchState, started, type TargetState } from './target-state.util';

const noScrape = (): Promise<ScrapeDocument> =>
  Promise.reject(new Error('search results are scraped by the monitor batch'));

/**
 * Starts the work of a check's targets: one collection per target through the crawl/batch path (a
 * search target runs its searches first, then a batch of their results), each with an idempotency key
 * derived from the check, so a re-run finds what an earlier attempt started.
 */
export class StartTargetsUseCase {
  constructor(
    private readonly deps: CheckRunnerDeps,
    private readonly owner: string,
  ) {}

  async execute(
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
}
