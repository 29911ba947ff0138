import { escape } from './answer-terms.util';
import type { Fact } from './page-facts.util';
import type { QuestionFrame } from './question-frame.util';
import { QUALIFIER_GROUPS } from './question-words.util';
import type { ValueKind, ValueSpan } from './values.util';

// How well a value fits what a question asks for, apart from the question's words (scored in
// answer-candidates): qualifiers ("was", "default", "per month"), names, units and dimensions.

const AXES = [
  ['start', 'end'],
  ['maximum', 'minimum', 'default'],
  ['before', 'after'],
  ['regular', 'express', 'early'],
  ['online', 'onsite'],
  // A total is not a price per month or per year.
  ['monthly', 'yearly', 'total'],
];

/** Labels whose values are places ("Region: Central Otago, New Zealand"). */
export const PLACE_LABEL =
  /\b(region|country|origin|location|city|town|venue|address|place|area|state|county|district)\b/i;
export const PLACE_WORDS =
  /\b(Hall|Centre|Center|Arena|Stadium|Park|Square|Museum|Hotel|Church|Cathedral|Theatre|Theater|Campus|Station|Airport|Street|Road|Lane|Avenue|Bridge|Harbour|Harbor|Pier|Quay|Island|Lake|River|Valley|Mountain|Castle|Palace|Gallery|Library|University|College|Institute|School|Hospital|Market|Plaza|Building|Tower|House|Centrum)\b/;
export const NOT_NAMES =
  /^(The|A|An|This|That|These|Those|Our|Your|Their|His|Her|Its|We|You|They|It|He|She|I|In|On|At|By|For|From|To|Of|With|And|But|Or|If|When|Where|What|Who|Why|How|Yes|No|Every|Each|All|Some|Any|Most|Many|Today|Tomorrow|Yesterday|Since|After|Before|During|Free|New|Our|Price|Prices|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|Home|Read|More|Sign|Log|Buy|Add|Shop|Menu|Search|Contact|About|Help|FAQ|Note|Tip|Warning|Step|Fixed|New|Added|Changed|Removed|Breaking|Prep|Cook|Total|Serves|Makes|Available|Published|Posted|Updated|Written|Email|Phone|Office|Address|Open|Closed|Please|Visa|Mastercard)$/;

/** Qualifier groups that describe a value: struck or "was" prices, "from X to Y", "default", "maximum"… */
export function qualifiersOf(candidate: { fact: Fact; span?: ValueSpan }, segmentText: string): Set<string> {
  const found = new Set<string>();
  const lower = ` ${segmentText.toLowerCase()} ${candidate.fact.label.toLowerCase()} `.replace(
    /[^\p{L}\p{N}:(-]+/gu,
    ' ',
  );
  if (
    candidate.fact.struck &&
    candidate.span &&
    new RegExp(`~~[^~]*${escape(candidate.span.text)}`).test(candidate.fact.value)
  )
    found.add('before');
  const before = candidate.span?.before ?? '';
  if (/\b(was|were|previously|originally|rrp|instead of|old)$/.test(before)) found.add('before');
  const span = candidate.span;
  if (
    span &&
    (/\bfrom$/.test(before) || /^from\s/i.test(span.text)) &&
    /^\s+to\s/.test(candidate.fact.value.slice(span.end))
  )
    found.add('before');
  if (
    span &&
    /\bto$/.test(before) &&
    /\bfrom\b/.test(candidate.fact.value.slice(Math.max(0, span.start - 40), span.start))
  )
    found.add('after');
  for (const [group, members] of Object.entries(QUALIFIER_GROUPS)) {
    if (group === 'before' || group === 'after' || group === 'minimum') continue;
    // "Early-bird tickets" is "early bird".
    const spaced = lower.replace(/(?<=\p{L})-(?=\p{L})/gu, ' ');
    if (
      members.some(
        (member) =>
          lower.includes(` ${member} `) ||
          lower.includes(` ${member}:`) ||
          lower.includes(`(${member}`) ||
          spaced.includes(` ${member} `),
      )
    )
      found.add(group);
  }
  if (/\b(minimum|min\.?|at least|lowest)\b/.test(lower)) found.add('minimum');
  // The period written with the amount ("$19 / month", "€27.50 a month", "$182/yr").
  const period = /(?:\/|\bper|\ba|\ban|\beach|\bevery)\s?(month|mo|year|yr|annum)\b/i.exec(
    span?.text ?? '',
  )?.[1];
  if (period) found.add(/^mo/i.test(period) ? 'monthly' : 'yearly');
  // "$8 per user per month, billed annually, or $10 billed monthly": how it is billed names the plan.
  const billed = span
    ? /^[^$€£¥\d]{0,40}?\b(?:billed|paid|charged)\s+(monthly|annually|yearly|every month|every year|per month|per year|once a year)/i.exec(
        candidate.fact.value.slice(span.end),
      )?.[1]
    : undefined;
  if (billed) {
    found.delete('monthly');
    found.delete('yearly');
    found.add(/month/i.test(billed) ? 'monthly' : 'yearly');
  }
  // "Between 7:00 and 22:00": the first is the start, the second the end.
  if (span && /\bbetween$/.test(before) && /^\s+and\s/.test(candidate.fact.value.slice(span.end)))
    found.add('start');
  if (
    span &&
    /\band$/.test(before) &&
    /\bbetween\b/.test(candidate.fact.value.slice(Math.max(0, span.start - 30), span.start))
  )
    found.add('end');
  // The ends of a range ("runs from 3 June to 9 June 2024").
  if (
    span &&
    (/\bfrom$/.test(before) || /^from\s/i.test(span.text)) &&
    /^\s+(?:to|until|till|–|-)\s/.test(candidate.fact.value.slice(span.end))
  )
    found.add('start');
  if (
    span &&
    /\b(to|until|till)$/.test(before) &&
    /\bfrom\b/.test(candidate.fact.value.slice(Math.max(0, span.start - 40), span.start))
  )
    found.add('end');
  return found;
}

export function qualifierFactor(frame: QuestionFrame, found: Set<string>): number {
  let factor = 1;
  if (frame.qualifiers.size === 0) return found.has('before') ? 0.45 : 1;
  for (const axis of AXES) {
    const asked = axis.filter((group) => frame.qualifiers.has(group));
    if (asked.length === 0) continue;
    const has = axis.filter((group) => found.has(group));
    // Said of the asked qualifier and of another one too ("per month, billed annually"): a weaker fit.
    if (has.some((group) => asked.includes(group)))
      factor *= has.every((group) => asked.includes(group)) ? 1.5 : 1.1;
    else if (has.length > 0) factor *= 0.45;
  }
  if (!frame.qualifiers.has('before') && found.has('before')) factor *= 0.6;
  return factor;
}

/** How much a name looks like what the question asks for (a person, a place, an organisation). */
export function nameFit(frame: QuestionFrame, name: ValueSpan, fact: Fact): number {
  const words = name.text.split(/\s+/);
  if (NOT_NAMES.test(words[0]) && words.length === 1) return 0;
  const text = name.text.replace(/^(The|A|An)\s/, '');
  if (NOT_NAMES.test(text) || /\d/.test(text)) return 0;
  const before = name.before;
  if (frame.shape === 'person') {
    if (/^(Dr|Prof|Mr|Mrs|Ms|Sir|Dame|Capt|Captain)\b/.test(name.text)) return 1.2;
    if (words.length < 2 || PLACE_WORDS.test(name.text)) return words.length < 2 ? 0.15 : 0.3;
    // "Ember & Oak", "Harbour Logistics Group": an organisation, not a person.
    if (/&|\b(Ltd|Inc|GmbH|LLC|plc|Group|Company|Co)\b\.?/.test(name.text)) return 0.3;
    // "by Tom Reyes", "run by siblings Aoife and Ciarán Walsh", "led by ceramicist Hannah Oduya".
    return /\bby(?:\s\p{L}+)?$/u.test(before) ? 1.2 : 1;
  }
  if (frame.shape === 'place') {
    // "at the Lisbon Congress Centre" is where it is; "a walk from Oriente" is where it is not,
    // unless the question asks where from or to.
    const direction = /\b(from|to|into|towards?)\b/i.test(frame.question);
    // ("at the Corn Exchange": the article between the preposition and the name.)
    const preposition = before.replace(/\s+(?:the|a|an)$/i, '');
    let fit = /\b(in|at|on)$/.test(preposition)
      ? 1
      : /\b(from|near|to|into)$/.test(preposition)
        ? direction
          ? 1
          : 0.4
        : 0.35;
    if (PLACE_WORDS.test(name.text)) fit = Math.max(fit, 0.9);
    if (fact.source !== 'text') fit = Math.max(fit, 0.8);
    return fit;
  }
  // A name answering "what X" (a licence, a material) is a weaker reading than a labelled value.
  if (frame.shape === 'value') return 0.6;
  return words.length >= 1 ? 0.8 : 0;
}

const UNIT_WORDS: Partial<Record<ValueKind, RegExp>> = {
  duration: /\b(seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b/i,
  mass: /\b(grams?|kilograms?|kg|pounds|lbs?|ounces?)\b/i,
  length: /\b(millimetres?|centimetres?|metres?|meters?|kilometres?|km|miles?|inches|feet)\b/i,
  data: /\b(bytes|kilobytes|megabytes|gigabytes|kb|mb|gb|tb)\b/i,
  money: /\b(euros?|dollars?|pounds|usd|eur|gbp)\b/i,
  percent: /\b(percent|percentage|per cent)\b|%/i,
  energy: /\b(calories|kcal|kj|kwh|wh|mah)\b/i,
};

/** A labelled number whose label or description names a unit of the asked kind ("retention_days: … Default: 30"). */
export function impliedUnit(frame: QuestionFrame, fact: Fact): boolean {
  if (fact.source === 'text') return false;
  const text = `${fact.label.replace(/_/g, ' ')} ${fact.value}`;
  return frame.kinds.slice(0, 1).some((kind) => UNIT_WORDS[kind]?.test(text));
}

const DIMENSIONS: [RegExp, RegExp][] = [
  [/\b(wide|width|broad)\b/, /\b(wide|width|broad|across)\b/i],
  [/\b(tall|height|high)\b/, /\b(tall|height|high)\b/i],
  [/\b(deep|depth)\b/, /\b(deep|depth|water[- ]?resist\w*|waterproof|dive|diving|submersible)\b/i],
  [/\b(thick|thickness)\b/, /\b(thick|thickness|thin|slim)\b/i],
];

/** "How wide": a length counts only when the page says it is the width (an unmarked length is the length). */
export function dimensionFits(frame: QuestionFrame, value: ValueSpan, fact: Fact): boolean {
  if (value.kind !== 'length') return true;
  const question = frame.question.toLowerCase();
  const dimension = DIMENSIONS.find(([asked]) => asked.test(question));
  if (!dimension) return true;
  const around = `${fact.label} ${fact.value.slice(Math.max(0, value.start - 40), value.end + 40)}`;
  return dimension[1].test(around);
}

const AXIS_LETTERS: [RegExp, string][] = [
  [/\b(deep|depth)\b/, 'D'],
  [/\b(wide|width)\b/, 'W'],
  [/\b(tall|height|high)\b/, 'H'],
  [/\b(long|length)\b/, 'L'],
];

/**
 * "How deep is it?" over "Dimensions (H × W × D): 85 × 60 × 58 cm": the depth, when the page says
 * in which order the sizes are given (letters or words before the value).
 */
export function dimensionComponent(frame: QuestionFrame, value: ValueSpan, fact: Fact): string | undefined {
  if (value.kind !== 'length' || !/\d\s*[×x]\s*\d/.test(value.text)) return undefined;
  const asked = AXIS_LETTERS.find(([pattern]) => pattern.test(frame.question.toLowerCase()))?.[1];
  if (!asked) return undefined;
  const context = `${fact.label} ${fact.value.slice(Math.max(0, value.start - 60), value.start)}`
    .replace(/\b(height|width|depth|length)\b/gi, (word) => word[0].toUpperCase())
    .replace(/\b(B)\b/g, 'W');
  const order = /\b([HWDL])\s*[×x*]\s*([HWDL])(?:\s*[×x*]\s*([HWDL]))?\b/i.exec(context);
  if (!order) return undefined;
  const axes = order
    .slice(1)
    .filter(Boolean)
    .map((letter) => letter.toUpperCase());
  const parts = value.text.replace(/^[^\d]*/, '').split(/\s*[×x]\s*/);
  const unit = /[^\d.,\s].*$/.exec(parts[parts.length - 1])?.[0] ?? '';
  const index = axes.indexOf(asked);
  if (index < 0 || parts.length !== axes.length) return undefined;
  const number = /^[\d.,]+/.exec(parts[index])?.[0];
  return number ? `${number} ${unit}`.trim() : undefined;
}

/** A labelled value as an answer: without a trailing aside ("4th of 5 (lift)" → "4th of 5"). */
export function labelValue(value: string): string {
  return value.replace(/\s*\([^()]*\)$/, '').trim() || value;
}
