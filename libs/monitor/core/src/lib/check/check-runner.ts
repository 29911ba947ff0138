import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

import type { Caller } from '@quarry/crawl';
import { isTerminal } from '@quarry/jobs';

import type { CheckRecord, MonitorRecord } from '../monitor.types';
import type { FinishedCheck } from '../notify/check-notifier';
import type { CheckRunnerDeps } from './check-runner.deps';
import { CompleteCheckUseCase } from './complete-check.usecase';
import { summarise } from './page-results.util';
import { StartTargetsUseCase } from './start-targets.usecase';
import { planTarget, type TargetPlan } from './target-plan';
import { collectionIds, type TargetState } from './target-state.util';

export type { CheckRunnerDeps, CheckRunnerSettings } from './check-runner.deps';

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

  /** Checks this process is running: a second delivery meanwhile is not a second runner. */
  private readonly running = new Set<string>();
  private readonly starting: StartTargetsUseCase;
  private readonly completing: CompleteCheckUseCase;

  constructor(private readonly deps: CheckRunnerDeps) {
    this.starting = new StartTargetsUseCase(deps, this.owner);
    this.completing = new CompleteCheckUseCase(deps, this.owner);
  }

  /**
   * One runner per check and process; its lease is renewed for as long as it works (a slow search
   * or collection start included), so only a runner that died loses it and counts as an attempt.
   */
  async run(checkId: string): Promise<void> {
    if (this.running.has(checkId)) return;
    this.running.add(checkId);
    const { monitors, settings } = this.deps;
    const heartbeat = setInterval(
      () => void monitors.renewLease(checkId, this.owner, settings.leaseMs).catch(() => undefined),
      Math.max(200, Math.floor(settings.leaseMs / 3)),
    );
    try {
      await this.runClaimed(checkId);
    } finally {
      clearInterval(heartbeat);
      this.running.delete(checkId);
    }
  }

  private async runClaimed(checkId: string): Promise<void> {
    const { monitors, settings } = this.deps;
    const claimed = await monitors.claimCheck(checkId, this.owner, settings.leaseMs);
    if (!claimed) return;
    const monitor = await monitors.find(claimed.monitorId);
    if (!monitor) return; // deleted meanwhile: its checks went with it
    if (claimed.attempts > settings.maxAttempts) {
      // Every earlier runner died (or failed) on this check: it fails with the reason, once, and is
      // never delivered again; the monitor keeps its schedule (next_run_at moved on when it was claimed).
      this.deps.logger.warn(
        { checkId, monitorId: monitor.id, attempts: claimed.attempts - 1 },
        'monitor check quarantined',
      );
      this.deps.metrics.workQuarantined.inc({ kind: 'monitor_check' });
      const states = claimed.targetResults as TargetState[];
      await this.cancelRunning(monitor.teamId, states, states.flatMap(collectionIds));
      await this.finishFailed(
        claimed,
        monitor,
        `The check was quarantined: it was attempted ${claimed.attempts - 1} times and no attempt finished (each failed or ended its orchestrator process), so it is not retried. Its unfinished crawls and batches were cancelled.`,
      );
      return;
    }
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
      const states = await this.starting.execute(claimed, monitor, plans);
      if (!states) return;
      const waited = await this.waitForCollections(checkId, monitor.teamId, states, startedAt);
      if (waited === 'lost') return;
      await this.completing.execute(claimed, monitor, plans, states, waited === 'timed-out');
    } catch (error) {
      this.deps.logger.error({ err: error, checkId, monitorId: monitor.id }, 'monitor check failed');
      await this.finishFailed(claimed, monitor, `The check failed: ${(error as Error).message}`);
    }
  }

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
