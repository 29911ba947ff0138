export * from './lib/schedule/schedule-error';
export * from './lib/schedule/schedule-text.util';
export * from './lib/schedule/cron-schedule.util';
