import { Cron, CronPattern } from 'croner';

import { MONITOR_LIMITS } from '@quarry/contracts';

import { ScheduleError } from './schedule-error';
import { scheduleTextToCron } from './schedule-text.util';

export interface ResolvedSchedule {
  /** Five-field cron expression. */
  cron: string;
  timezone: string;
  /** The text it came from, when it was given as text. */
  text?: string;
}

const MINUTES_PER_DAY = 24 * 60;
const NICKNAMES: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/**
 * Validates a schedule (exactly one of cron/text) and returns its five-field cron expression.
 * Refuses unknown time zones, cron expressions croner cannot read or that are not five fields,
 * and any expression whose runs can come closer than the minimum interval (15 minutes).
 */
export function resolveSchedule(
  input: { cron?: string; text?: string; timezone: string },
  minIntervalMinutes: number = MONITOR_LIMITS.minIntervalMinutes,
): ResolvedSchedule {
  const timezone = checkTimezone(input.timezone);
  let cron: string;
  if (input.text !== undefined) {
    const mapped = scheduleTextToCron(input.text);
    if (!mapped) {
      throw new ScheduleError(
        `Unrecognised schedule text "${input.text}". Use e.g. "every 30 minutes", "every 2 hours", "hourly", "daily at 9am", "every monday at 08:30", "weekdays at 17:00", "monthly on the 1st at 6am", or give a cron expression instead`,
      );
    }
    cron = mapped;
  } else if (input.cron !== undefined) {
    cron = normaliseCron(input.cron);
  } else {
    throw new ScheduleError('schedule needs exactly one of cron or text');
  }
  const gap = minimumGapMinutes(cron, timezone);
  if (gap < minIntervalMinutes) {
    throw new ScheduleError(
      `The schedule runs every ${formatMinutes(gap)}; the minimum interval between checks is ${minIntervalMinutes} minutes`,
    );
  }
  return { cron, timezone, ...(input.text !== undefined ? { text: input.text } : {}) };
}

/** The next run strictly after `after`, or null when the expression never fires again. */
export function nextRunAfter(cron: string, timezone: string, after: Date): Date | null {
  return job(cron, timezone).nextRun(after);
}

/**
 * Runs in the 30 days after `from` (for the monthly credit estimate). Whole days count the cron's
 * times per firing day (the minute × hour grid); only the first and last, partial, days are
 * enumerated, so this stays cheap for a 15-minute schedule. Daylight-saving days may be off by one.
 */
export function runsPerMonth(cron: string, timezone: string, from = new Date()): number {
  const until = new Date(from.getTime() + 30 * MINUTES_PER_DAY * 60_000);
  const cronJob = job(cron, timezone);
  const midnights = job('0 0 * * *', timezone);
  const perDay = gridTimes(cron).length;
  let dayStart = midnights.nextRun(from) ?? until;
  let count = countBetween(cronJob, from, dayStart < until ? dayStart : until);
  while (dayStart < until) {
    const nextDay = midnights.nextRun(dayStart) ?? until;
    if (nextDay >= until) {
      count += countBetween(cronJob, new Date(dayStart.getTime() - 1), new Date(until.getTime() + 1));
      break;
    }
    const first = cronJob.nextRun(new Date(dayStart.getTime() - 1));
    if (first && first < nextDay) count += perDay;
    dayStart = nextDay;
  }
  return count;
}

/** Runs strictly after `after` and strictly before `before`. */
function countBetween(cronJob: Cron, after: Date, before: Date): number {
  let count = 0;
  for (let cursor = cronJob.nextRun(after); cursor && cursor < before; cursor = cronJob.nextRun(cursor))
    count += 1;
  return count;
}

/** The minutes of the day (hour × 60 + minute) at which the cron fires on a firing day, ascending. */
function gridTimes(cron: string): number[] {
  const pattern = new CronPattern(cron, undefined, { mode: '5-part' });
  const times: number[] = [];
  pattern.hour.forEach((hourOn, hour) => {
    if (!hourOn) return;
    pattern.minute.forEach((minuteOn, minute) => {
      if (minuteOn) times.push(hour * 60 + minute);
    });
  });
  return times;
}

function job(cron: string, timezone: string): Cron {
  return new Cron(cron, { paused: true, timezone, mode: '5-part' });
}

function checkTimezone(timezone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return timezone;
  } catch {
    throw new ScheduleError(
      `Unknown time zone "${timezone}": use an IANA name such as "UTC" or "Europe/Berlin"`,
    );
  }
}

function normaliseCron(raw: string): string {
  const trimmed = raw.trim().replace(/\s+/g, ' ');
  const nickname = NICKNAMES[trimmed.toLowerCase()];
  if (nickname) return nickname;
  if (trimmed.split(' ').length !== 5) {
    throw new ScheduleError(
      `The cron expression "${raw}" must have exactly five fields (minute hour day-of-month month day-of-week)`,
    );
  }
  try {
    new CronPattern(trimmed, undefined, { mode: '5-part' });
  } catch (error) {
    throw new ScheduleError(
      `Invalid cron expression "${raw}": ${(error as Error).message.replace(/^CronPattern: /, '')}`,
    );
  }
  return trimmed;
}

/**
 * The shortest time between two runs, in minutes. Day fields only choose *which* days fire; on a
 * firing day the times are the minute × hour grid, so the shortest gap is between neighbouring
 * grid times, or from the day's last time to the first time of the next day (counted as if the
 * next day fired too, the worst case). The next 200 real run times are then checked as
 * well, which catches what daylight-saving shifts do to a schedule.
 */
export function minimumGapMinutes(cron: string, timezone = 'UTC'): number {
  const times = gridTimes(cron);
  if (times.length === 0) return Number.POSITIVE_INFINITY;
  let gap = MINUTES_PER_DAY - times[times.length - 1] + times[0];
  for (let index = 1; index < times.length; index += 1) gap = Math.min(gap, times[index] - times[index - 1]);
  const runs = job(cron, timezone).nextRuns(200);
  for (let index = 1; index < runs.length; index += 1) {
    gap = Math.min(gap, (runs[index].getTime() - runs[index - 1].getTime()) / 60_000);
  }
  return gap;
}

function formatMinutes(minutes: number): string {
  if (minutes < 1) return `${Math.round(minutes * 60)} seconds`;
  return minutes === 1 ? '1 minute' : `${Math.round(minutes)} minutes`;
}
