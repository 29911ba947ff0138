import { randomUUID } from 'node:crypto';

import type { MonitorCheckStatus, MonitorTargetView } from '@quarry/contracts';

import { type CheckTrigger, EMPTY_SUMMARY, type MonitorRecord, type NewCheck } from '../monitor.types';
import { planTarget } from './target-plan';

export interface CreditNeeds {
  /** What a check is expected to cost. */
  estimated: number;
  /** What the team must have for a check to start (otherwise `skipped_no_credits`). */
  minimum: number;
}

export function creditNeeds(monitorId: string, targets: MonitorTargetView[]): CreditNeeds {
  const plans = targets.map((target) => planTarget(monitorId, target));
  return {
    estimated: plans.reduce((sum, plan) => sum + plan.estimatedCredits, 0),
    minimum: plans.reduce((sum, plan) => sum + plan.minimumCredits, 0),
  };
}

export const OVERLAP_MESSAGE = 'The previous check of this monitor was still running';
export const NO_CREDITS_MESSAGE = 'Insufficient credits to run the check';

/**
 * The check a trigger records: `queued` normally; `skipped_overlap` while the previous check runs
 * (scheduled triggers); `skipped_no_credits` when the team cannot pay for its start. Skipped checks
 * are finished at once and cost nothing.
 */
export function newCheck(
  monitor: MonitorRecord,
  input: { trigger: CheckTrigger; scheduledFor: Date | null; checkInProgress: boolean; teamCredits: number },
): NewCheck {
  let needs: CreditNeeds;
  try {
    needs = creditNeeds(monitor.id, monitor.targets);
  } catch {
    // Targets that no longer plan are reported by the check itself when it runs.
    needs = { estimated: monitor.estimatedCreditsPerCheck, minimum: 0 };
  }
  let status: MonitorCheckStatus = 'queued';
  let error: string | null = null;
  if (input.checkInProgress) {
    status = 'skipped_overlap';
    error = OVERLAP_MESSAGE;
  } else if (input.teamCredits < needs.minimum) {
    status = 'skipped_no_credits';
    error = `${NO_CREDITS_MESSAGE}: it needs at least ${needs.minimum}, the team has ${input.teamCredits}`;
  }
  const skipped = status !== 'queued';
  return {
    id: randomUUID(),
    monitorId: monitor.id,
    teamId: monitor.teamId,
    status,
    trigger: input.trigger,
    scheduledFor: input.scheduledFor,
    estimatedCredits: needs.estimated,
    billingStatus: 'not_applicable',
    summary: EMPTY_SUMMARY,
    targetResults: [],
    error,
    finishedAt: skipped ? new Date() : null,
  };
}
