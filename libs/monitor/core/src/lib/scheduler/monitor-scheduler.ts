import type { Logger } from 'pino';

import type { MonitorCheckMessage } from '@quarry/contracts';
import type { MessageBus } from '@quarry/platform/bus';

import { newCheck } from '../check/check-factory.util';
import type { CheckRecord } from '../monitor.types';
import type { EmailSubscriptionRepository } from '../persistence/email-subscription.repository';
import type { DueDecision, DueMonitor, MonitorRepository } from '../persistence/monitor.repository';
import { nextRunAfter } from '../schedule/cron-schedule.util';

export interface MonitorSchedulerSettings {
  intervalMs: number;
  /** Lease of a running check: one held longer than this without renewal is abandoned. */
  leaseMs: number;
}

const CLAIM_BATCH = 20;
const PRUNE_EVERY_MS = 10 * 60_000;

/** Publishes a check to `monitor.checks` (keyed by monitor, so one monitor's checks keep their order). */
export async function publishCheck(
  bus: MessageBus,
  check: Pick<CheckRecord, 'id' | 'monitorId' | 'teamId'>,
): Promise<void> {
  const message: MonitorCheckMessage = {
    checkId: check.id,
    monitorId: check.monitorId,
    teamId: check.teamId,
  };
  await bus.publish('monitorChecks', message, { key: check.monitorId });
}

/**
 * The monitors' clock, run by every orchestrator (and the one-process mode). Each tick claims due
 * monitors in PostgreSQL (row locks with SKIP LOCKED, `next_run_at` moved on in the same
 * transaction: a slot runs once however many replicas tick), publishes their checks, re-publishes
 * checks whose runner died (expired lease), and prunes checks past their monitor's retention.
 * A monitor that missed slots while nothing ran gets one check for the latest slot, not a backlog.
 */
export class MonitorScheduler {
  private timer?: NodeJS.Timeout;
  private ticking = false;
  private lastPrune = 0;

  constructor(
    private readonly deps: {
      monitors: MonitorRepository;
      subscriptions: EmailSubscriptionRepository;
      bus: MessageBus;
      settings: MonitorSchedulerSettings;
      logger: Logger;
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.deps.settings.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async tick(now: () => Date = () => new Date()): Promise<{ started: number; republished: number }> {
    if (this.ticking) return { started: 0, republished: 0 };
    this.ticking = true;
    try {
      const { monitors, bus, settings } = this.deps;
      let started = 0;
      for (;;) {
        const checks = await monitors.claimDue(CLAIM_BATCH, (due) => this.decide(due, now()));
        for (const check of checks) await publishCheck(bus, check);
        started += checks.length;
        if (checks.length < CLAIM_BATCH) break;
      }
      const stale = await monitors.staleChecks(Math.max(settings.leaseMs, settings.intervalMs * 2));
      for (const check of stale)
        await publishCheck(bus, { id: check.id, monitorId: check.monitorId, teamId: check.teamId });
      if (stale.length)
        this.deps.logger.info({ checks: stale.length }, 'abandoned monitor checks re-published');
      if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
        this.lastPrune = Date.now();
        const pruned = await monitors.pruneChecks();
        await this.deps.subscriptions.pruneTokens();
        if (pruned) this.deps.logger.info({ pruned }, 'monitor checks past retention deleted');
      }
      return { started, republished: stale.length };
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'monitor scheduler tick failed');
      return { started: 0, republished: 0 };
    } finally {
      this.ticking = false;
    }
  }

  private decide(due: DueMonitor, now: Date): DueDecision {
    const { monitor } = due;
    const slot = monitor.nextRunAt ?? now;
    const check = newCheck(monitor, {
      trigger: 'scheduled',
      scheduledFor: slot,
      checkInProgress: due.checkInProgress,
      teamCredits: due.teamCredits,
    });
    let nextRunAt: Date | null = null;
    try {
      nextRunAt = nextRunAfter(monitor.cron, monitor.timezone, slot.getTime() > now.getTime() ? slot : now);
    } catch (error) {
      this.deps.logger.error(
        { err: error, monitorId: monitor.id },
        'monitor schedule cannot be evaluated; the monitor stops running',
      );
    }
    return { check, nextRunAt };
  }
}
