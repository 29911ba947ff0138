import { minimumGapMinutes, nextRunAfter, resolveSchedule, runsPerMonth } from './cron-schedule.util';
import { ScheduleError } from './schedule-error';
import { scheduleTextToCron } from './schedule-text.util';

describe('scheduleTextToCron', () => {
  it.each([
    ['every 30 minutes', '*/30 * * * *'],
    ['Every 15 mins', '*/15 * * * *'],
    ['every half hour', '*/30 * * * *'],
    ['every 60 minutes', '0 * * * *'],
    ['every 120 minutes', '0 */2 * * *'],
    ['hourly', '0 * * * *'],
    ['every hour', '0 * * * *'],
    ['every hour at :15', '15 * * * *'],
    ['every 6 hours', '0 */6 * * *'],
    ['daily', '0 0 * * *'],
    ['every day at 9am', '0 9 * * *'],
    ['daily at 9:30 pm', '30 21 * * *'],
    ['daily at 17:00', '0 17 * * *'],
    ['daily at 12am', '0 0 * * *'],
    ['daily at noon', '0 12 * * *'],
    ['at 7:45am every day', '45 7 * * *'],
    ['twice a day', '0 0,12 * * *'],
    ['weekdays at 8:30', '30 8 * * 1-5'],
    ['every weekday', '0 0 * * 1-5'],
    ['weekends at 10am', '0 10 * * 0,6'],
    ['weekly', '0 0 * * 1'],
    ['weekly on friday at 5pm', '0 17 * * 5'],
    ['every monday at 9am', '0 9 * * 1'],
    ['mondays and thursdays at 6:15', '15 6 * * 1,4'],
    ['monthly', '0 0 1 * *'],
    ['monthly on the 15th at 6am', '0 6 15 * *'],
    ['every 3 days at 2am', '0 2 */3 * *'],
  ])('%s → %s', (text, cron) => {
    expect(scheduleTextToCron(text)).toBe(cron);
  });

  it('does not guess at text it does not know', () => {
    expect(scheduleTextToCron('whenever the moon is full')).toBeUndefined();
    expect(scheduleTextToCron('every blue moon')).toBeUndefined();
  });

  it('refuses intervals cron cannot express evenly', () => {
    expect(() => scheduleTextToCron('every 45 minutes')).toThrow(ScheduleError);
    expect(() => scheduleTextToCron('every 5 hours')).toThrow(/divisor of 24/);
    expect(() => scheduleTextToCron('daily at 25:00')).toThrow(/Unrecognised time/);
  });
});

describe('minimumGapMinutes', () => {
  it.each([
    ['*/15 * * * *', 15],
    ['*/10 * * * *', 10],
    ['0 * * * *', 60],
    ['0,5 9 1 * *', 5],
    ['0,45 * * * *', 15],
    ['5,55 0,23 * * *', 10],
    ['0 9 * * 1-5', 24 * 60],
    ['0 0,12 * * *', 12 * 60],
  ])('%s → %d', (cron, minutes) => {
    expect(minimumGapMinutes(cron)).toBe(minutes);
  });
});

describe('resolveSchedule', () => {
  it('accepts cron at the 15-minute minimum and normalises nicknames and spacing', () => {
    expect(resolveSchedule({ cron: '*/15 * * * *', timezone: 'UTC' })).toEqual({
      cron: '*/15 * * * *',
      timezone: 'UTC',
    });
    expect(resolveSchedule({ cron: ' 0   9 * * 1-5 ', timezone: 'Europe/Berlin' })).toEqual({
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Berlin',
    });
    expect(resolveSchedule({ cron: '@hourly', timezone: 'UTC' }).cron).toBe('0 * * * *');
  });

  it('maps text and keeps it', () => {
    expect(resolveSchedule({ text: 'daily at 9am', timezone: 'America/New_York' })).toEqual({
      cron: '0 9 * * *',
      timezone: 'America/New_York',
      text: 'daily at 9am',
    });
  });

  it('rejects intervals under 15 minutes by their actual spacing', () => {
    expect(() => resolveSchedule({ cron: '*/5 * * * *', timezone: 'UTC' })).toThrow(
      'The schedule runs every 5 minutes; the minimum interval between checks is 15 minutes',
    );
    expect(() => resolveSchedule({ cron: '0,10 * * * *', timezone: 'UTC' })).toThrow(/every 10 minutes/);
    expect(() => resolveSchedule({ text: 'every minute', timezone: 'UTC' })).toThrow(/every 1 minute;/);
  });

  it('rejects malformed cron, seconds fields, unknown text and time zones', () => {
    expect(() => resolveSchedule({ cron: '0 0 * * * *', timezone: 'UTC' })).toThrow(/exactly five fields/);
    expect(() => resolveSchedule({ cron: '61 * * * *', timezone: 'UTC' })).toThrow(/Invalid cron expression/);
    expect(() => resolveSchedule({ text: 'now and then', timezone: 'UTC' })).toThrow(
      /Unrecognised schedule text/,
    );
    expect(() => resolveSchedule({ cron: '0 * * * *', timezone: 'Mars/Olympus' })).toThrow(
      /Unknown time zone/,
    );
  });
});

describe('next runs', () => {
  it('follows the time zone, daylight saving included', () => {
    const next = nextRunAfter('0 9 * * *', 'America/New_York', new Date('2026-03-07T15:00:00Z'));
    // 9:00 EDT on 8 March (the day DST starts) is 13:00 UTC.
    expect(next?.toISOString()).toBe('2026-03-08T13:00:00.000Z');
  });

  it('counts runs in 30 days', () => {
    const from = new Date('2026-01-01T00:00:00Z');
    expect(runsPerMonth('0 * * * *', 'UTC', from)).toBe(720);
    expect(runsPerMonth('*/15 * * * *', 'UTC', from)).toBe(2_880);
    expect(runsPerMonth('0 9 * * 1', 'UTC', from)).toBe(4);
  });
});
