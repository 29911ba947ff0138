import type { MonitorCheckStatus, MonitorTargetResult } from '@quarry/contracts';

import type { CheckRecord, MonitorRecord, PageResult } from '../monitor.types';
import type { FinishedCheck } from '../notify/check-notifier';
import type { CheckRunnerDeps } from './check-runner.deps';
import { CollectTargetPagesUseCase } from './collect-target-pages.usecase';
import { summarise } from './page-results.util';
import type { TargetPlan } from './target-plan';
import { collectionIds, type TargetState } from './target-state.util';

/** Ends a check whose collections finished (or timed out): pages, judgments, status, credits, notifications. */
export class CompleteCheckUseCase {
  private readonly pages: CollectTargetPagesUseCase;

  constructor(
    private readonly deps: CheckRunnerDeps,
    private readonly owner: string,
  ) {
    this.pages = new CollectTargetPagesUseCase(deps);
  }

  async execute(
    check: CheckRecord,
    monitor: MonitorRecord,
    plans: TargetPlan[],
    states: TargetState[],
    timedOut: boolean,
  ): Promise<void> {
    const pages: PageResult[] = [];
    const contents = new Map<PageResult, string>();
    for (const [index, plan] of plans.entries()) {
      pages.push(...(await this.pages.execute(check, monitor, plan, states[index], contents)));
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
}
