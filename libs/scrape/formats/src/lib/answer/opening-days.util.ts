import type { Fact, PageFacts } from './page-facts.util';

// "Are they open on Monday?" over an opening-hours list ("Sun–Mon: closed", "Tue–Fri 9:00 – 19:00"):
// the entry whose days cover the day asked about answers, closed or with its hours.

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const DAY = String.raw`(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?`;
const DAY_RANGE = new RegExp(String.raw`\b(${DAY})(?:\s*(?:–|—|-|to|until|through|thru)\s*(${DAY}))?`, 'gi');
const HOURS = /\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?\s*(?:–|—|-|to|until)\s*\d{1,2}|\bclosed\b|\b24 hours\b/i;

function dayIndex(word: string): number {
  return DAYS.indexOf(word.slice(0, 3).toLowerCase());
}

/** The days (0 = Monday) a label such as "Tue–Fri", "Sat, Sun", "Weekdays" or "Sun–Mon" covers. */
export function daysCovered(text: string): Set<number> {
  const days = new Set<number>();
  const lower = text.toLowerCase();
  if (/\b(?:daily|every day|7 days a week|seven days a week)\b/.test(lower))
    DAYS.forEach((_, day) => days.add(day));
  if (/\bweekdays?\b/.test(lower)) [0, 1, 2, 3, 4].forEach((day) => days.add(day));
  if (/\bweekends?\b/.test(lower)) [5, 6].forEach((day) => days.add(day));
  for (const match of text.matchAll(DAY_RANGE)) {
    const from = dayIndex(match[1]);
    const to = match[2] ? dayIndex(match[2]) : from;
    if (from < 0 || to < 0) continue;
    // A range may wrap around the week ("Sun–Mon", "Fri–Mon").
    for (let day = from; ; day = (day + 1) % 7) {
      days.add(day);
      if (day === to) break;
    }
  }
  return days;
}

/** The day a yes/no question about opening asks about ("Are they open on Mondays?"), or undefined. */
export function askedDay(question: string): number | undefined {
  const lower = question.toLowerCase();
  if (!/\bopen\b/.test(lower)) return undefined;
  const match = new RegExp(String.raw`\b(?:on|this|next)\s+(${DAY})`, 'i').exec(lower);
  const day = match ? dayIndex(match[1]) : -1;
  return day >= 0 ? day : undefined;
}

/** The opening-hours entry covering the day: its hours or "closed", with the fact it came from. */
export function openingOn(
  day: number,
  pages: readonly PageFacts[],
): { answer: string; fact: Fact } | undefined {
  for (const page of pages)
    for (const fact of page.facts) {
      // A labelled entry ("Sun–Mon | closed") or a line that starts with its days ("Sunday 9:00–18:00").
      const labelled = fact.source !== 'text' && fact.label && daysCovered(fact.label).has(day);
      const lead = new RegExp(
        String.raw`^\s*((?:${DAY}|weekdays?|weekends?|daily)(?:\s*(?:–|—|-|to|,|and|&)\s*${DAY})*)\s*:?\s+(.+)$`,
        'i',
      ).exec(fact.value);
      if (labelled && HOURS.test(fact.value)) return { answer: fact.value.trim(), fact };
      if (lead && daysCovered(lead[1]).has(day) && HOURS.test(lead[2]) && lead[2].length <= 40)
        return { answer: lead[2].trim(), fact };
    }
  return undefined;
}
