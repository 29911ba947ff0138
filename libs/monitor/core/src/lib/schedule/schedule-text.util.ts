import { ScheduleError } from './schedule-error';

const DAYS: Record<string, number> = {
  sunday: 0,
  sun: 0,
  monday: 1,
  mon: 1,
  tuesday: 2,
  tue: 2,
  tues: 2,
  wednesday: 3,
  wed: 3,
  thursday: 4,
  thu: 4,
  thur: 4,
  thurs: 4,
  friday: 5,
  fri: 5,
  saturday: 6,
  sat: 6,
};
const DAY = `(?:${Object.keys(DAYS).join('|')})s?`;
const TIME = String.raw`(?:noon|midnight|\d{1,2}(?::\d{2})?\s*(?:am|pm)?)`;
const AT = String.raw`(?:\s+at\s+(${TIME}))?`;

interface Time {
  hour: number;
  minute: number;
}

/**
 * Maps a plain-English schedule to a five-field cron expression, by rules (no model):
 * "every 30 minutes", "every hour" / "hourly" (optionally "at :15"), "every 2 hours",
 * "daily" / "every day at 9am", "twice a day", "weekdays at 8:30", "weekends",
 * "every monday and thursday at 17:00", "weekly", "monthly on the 15th at 6am", "every 3 days".
 * Returns undefined for text it does not understand; throws for intervals cron cannot express evenly.
 */
export function scheduleTextToCron(input: string): string | undefined {
  const text = input
    .toLowerCase()
    .replace(/[.,;!]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:run |check )?(?:once )?/, '');

  let match = /^(?:every|each) (\d+) ?(?:minutes?|mins?|m)$/.exec(text);
  if (match) return everyMinutes(Number(match[1]));
  if (/^(?:every|each) minute$/.test(text)) return '* * * * *';
  if (/^(?:every|each) (?:half(?: an)? hour|30 min(?:ute)?s?)$/.test(text)) return '*/30 * * * *';
  if (/^(?:every|each) quarter(?: of an)? hour$/.test(text)) return '*/15 * * * *';

  match = /^(?:hourly|(?:every|each|once an?|once per) hour)(?: at (?:minute )?:?(\d{1,2}))?$/.exec(text);
  if (match) return `${minuteOf(match[1])} * * * *`;
  match = /^(?:every|each) (\d+) ?(?:hours?|hrs?|h)$/.exec(text);
  if (match) return everyHours(Number(match[1]));

  match = new RegExp(`^(?:twice (?:a|per) day|twice daily)$`).exec(text);
  if (match) return '0 0,12 * * *';

  match =
    new RegExp(`^(?:daily|every ?day|each day|once (?:a|per) day)${AT}$`).exec(text) ??
    new RegExp(`^at (${TIME})(?: every day| daily|)$`).exec(text);
  if (match) return dailyAt(match[1]);
  if (text === 'noon' || text === 'midnight') return dailyAt(text);

  match = new RegExp(`^(?:every |on )?(weekdays?|weekends?|working days|business days)${AT}$`).exec(text);
  if (match) return `${cronTime(parseTime(match[2]))} * * ${/weekend/.test(match[1]) ? '0,6' : '1-5'}`;

  match = new RegExp(`^(?:weekly|every week|each week|once (?:a|per) week)(?: on (${DAY}))?${AT}$`).exec(
    text,
  );
  if (match) return `${cronTime(parseTime(match[2]))} * * ${match[1] ? dayNumber(match[1]) : 1}`;

  match = new RegExp(`^(?:every |each |on )?(${DAY}(?:(?:,? and |, | & )${DAY})*)${AT}$`).exec(text);
  if (match) {
    const days = match[1]
      .split(/,? and |, | & /)
      .map(dayNumber)
      .sort((a, b) => a - b);
    return `${cronTime(parseTime(match[2]))} * * ${[...new Set(days)].join(',')}`;
  }

  match = new RegExp(
    `^(?:monthly|every month|each month|once (?:a|per) month)(?: on the (\\d{1,2})(?:st|nd|rd|th)?)?${AT}$`,
  ).exec(text);
  if (match) {
    const day = match[1] ? Number(match[1]) : 1;
    if (day < 1 || day > 31) throw new ScheduleError(`"${input}": the day of the month must be 1 to 31`);
    return `${cronTime(parseTime(match[2]))} ${day} * *`;
  }

  match = new RegExp(`^(?:every|each) (\\d+) days?${AT}$`).exec(text);
  if (match) {
    const days = Number(match[1]);
    if (days < 1 || days > 31) throw new ScheduleError(`"${input}": every N days needs N between 1 and 31`);
    return `${cronTime(parseTime(match[2]))} ${days === 1 ? '*' : `*/${days}`} * *`;
  }
  return undefined;
}

function everyMinutes(minutes: number): string {
  if (minutes <= 0) throw new ScheduleError('The interval must be at least one minute');
  if (minutes % 60 === 0) return everyHours(minutes / 60);
  if (60 % minutes !== 0) {
    throw new ScheduleError(
      `Every ${minutes} minutes cannot be expressed as an even cron schedule; use a divisor of 60 (15, 20, 30) or whole hours`,
    );
  }
  return `*/${minutes} * * * *`;
}

function everyHours(hours: number): string {
  if (hours <= 0) throw new ScheduleError('The interval must be at least one hour');
  if (hours === 1) return '0 * * * *';
  if (hours === 24) return '0 0 * * *';
  if (24 % hours !== 0)
    throw new ScheduleError(
      `Every ${hours} hours cannot be expressed as an even cron schedule; use a divisor of 24 (2, 3, 4, 6, 8, 12)`,
    );
  return `0 */${hours} * * *`;
}

function minuteOf(value: string | undefined): number {
  const minute = value === undefined ? 0 : Number(value);
  if (minute > 59) throw new ScheduleError(`Minute ${minute} is out of range (0-59)`);
  return minute;
}

function dailyAt(time: string | undefined): string {
  return `${cronTime(parseTime(time))} * * *`;
}

function cronTime(time: Time): string {
  return `${time.minute} ${time.hour}`;
}

function dayNumber(name: string): number {
  const day = DAYS[name.replace(/s$/, '')] ?? DAYS[name];
  if (day === undefined) throw new ScheduleError(`Unknown day "${name}"`);
  return day;
}

/** "9am", "9:30 pm", "17:00", "noon", "midnight"; absent = midnight. */
export function parseTime(value: string | undefined): Time {
  if (value === undefined || value === 'midnight') return { hour: 0, minute: 0 };
  if (value === 'noon') return { hour: 12, minute: 0 };
  const match = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(value.trim());
  if (!match) throw new ScheduleError(`Unrecognised time "${value}"`);
  let hour = Number(match[1]);
  const minute = match[2] ? Number(match[2]) : 0;
  const meridiem = match[3];
  if (meridiem) {
    if (hour < 1 || hour > 12) throw new ScheduleError(`Unrecognised time "${value}"`);
    if (meridiem === 'am' && hour === 12) hour = 0;
    else if (meridiem === 'pm' && hour !== 12) hour += 12;
  }
  if (hour > 23 || minute > 59) throw new ScheduleError(`Unrecognised time "${value}"`);
  return { hour, minute };
}
