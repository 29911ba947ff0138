import { isStopword, stem } from '../text/tokens.util';
import {
  escape,
  matchesText,
  sameWord,
  SEGMENT_BREAK,
  termMatches,
  type Token,
  tokenize,
  type Weighted,
} from './answer-terms.util';
import { groupsOf, phraseGroups, QUALIFIER_GROUPS } from './lexicon.util';
import type { Fact } from './page-facts.util';
import { type QuestionFrame, ROLE_VERBS } from './question-frame.util';
import { findValues, nameSpans, type ValueKind, type ValueSpan } from './values.util';

// The values that could answer a question (exactAnswer) and how well each one does: kind, the
// question's words said about it, qualifiers ("was", "default", "from … to") and prominence.

export interface Candidate {
  fact: Fact;
  text: string;
  kind: ValueKind | 'label-value' | 'name';
  span?: ValueSpan;
  /** Read from the heading above the fact rather than from the fact itself. */
  fromHeading?: boolean;
  score: number;
  coverage: number;
}

const AXES = [
  ['start', 'end'],
  ['maximum', 'minimum', 'default'],
  ['before', 'after'],
  ['regular', 'express', 'early'],
  ['online', 'onsite'],
  ['monthly', 'yearly'],
  ['total'],
];
const HOW_FAR = /\bhow far\b/i;
/** Questions about the page's own writing ("When was it published?", "date of the article"). */
const PUBLISHING =
  /\b(publish\w*|post|posted|written|wrote|write|updated?|article|story|blog|piece|report|review|interview|dated?)\b/i;
/** Support given to every value of the asked kind when the question names nothing but the page's subject. */
export const TYPE_ONLY = 0.25;
/** Labels whose values are places ("Region: Central Otago, New Zealand"). */
const PLACE_LABEL =
  /\b(region|country|origin|location|city|town|venue|address|place|area|state|county|district)\b/i;
const PLACE_WORDS =
  /\b(Hall|Centre|Center|Arena|Stadium|Park|Square|Museum|Hotel|Church|Cathedral|Theatre|Theater|Campus|Station|Airport|Street|Road|Lane|Avenue|Bridge|Harbour|Harbor|Pier|Quay|Island|Lake|River|Valley|Mountain|Castle|Palace|Gallery|Library|University|College|Institute|School|Hospital|Market|Plaza|Building|Tower|House|Centrum)\b/;
const NOT_NAMES =
  /^(The|A|An|This|That|These|Those|Our|Your|Their|His|Her|Its|We|You|They|It|He|She|I|In|On|At|By|For|From|To|Of|With|And|But|Or|If|When|Where|What|Who|Why|How|Yes|No|Every|Each|All|Some|Any|Most|Many|Today|Tomorrow|Yesterday|Since|After|Before|During|Free|New|Our|Price|Prices|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|Home|Read|More|Sign|Log|Buy|Add|Shop|Menu|Search|Contact|About|Help|FAQ|Note|Tip|Warning|Step|Fixed|New|Added|Changed|Removed|Breaking|Prep|Cook|Total|Serves|Makes|Available|Published|Posted|Updated|Written|Email|Phone|Office|Address|Open|Closed|Please|Visa|Mastercard)$/;

/** Qualifier groups that describe a value: struck or "was" prices, "from X to Y", "default", "maximum"… */
function qualifiersOf(candidate: { fact: Fact; span?: ValueSpan }, segmentText: string): Set<string> {
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

function qualifierFactor(frame: QuestionFrame, found: Set<string>): number {
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
function nameFit(frame: QuestionFrame, name: ValueSpan, fact: Fact): number {
  const words = name.text.split(/\s+/);
  if (NOT_NAMES.test(words[0]) && words.length === 1) return 0;
  const text = name.text.replace(/^(The|A|An)\s/, '');
  if (NOT_NAMES.test(text) || /\d/.test(text)) return 0;
  const before = name.before;
  if (frame.shape === 'person') {
    if (/^(Dr|Prof|Mr|Mrs|Ms|Sir|Dame|Capt|Captain)\b/.test(name.text)) return 1.2;
    if (words.length < 2 || PLACE_WORDS.test(name.text)) return words.length < 2 ? 0.15 : 0.3;
    return /\bby$/.test(before) ? 1.2 : 1;
  }
  if (frame.shape === 'place') {
    // "at the Lisbon Congress Centre" is where it is; "a walk from Oriente" is where it is not,
    // unless the question asks where from or to.
    const direction = /\b(from|to|into|towards?)\b/i.test(frame.question);
    let fit = /\b(in|at|on)$/.test(before)
      ? 1
      : /\b(from|near|to|into)$/.test(before)
        ? direction
          ? 1
          : 0.4
        : 0.35;
    if (PLACE_WORDS.test(name.text)) fit = Math.max(fit, 0.9);
    if (fact.source !== 'text') fit = Math.max(fit, 0.8);
    return fit;
  }
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
function impliedUnit(frame: QuestionFrame, fact: Fact): boolean {
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
function dimensionFits(frame: QuestionFrame, value: ValueSpan, fact: Fact): boolean {
  if (value.kind !== 'length') return true;
  const question = frame.question.toLowerCase();
  const dimension = DIMENSIONS.find(([asked]) => asked.test(question));
  if (!dimension) return true;
  const around = `${fact.label} ${fact.value.slice(Math.max(0, value.start - 40), value.end + 40)}`;
  return dimension[1].test(around);
}

/** A labelled value as an answer: without a trailing aside ("4th of 5 (lift)" → "4th of 5"). */
function labelValue(value: string): string {
  return value.replace(/\s*\([^()]*\)$/, '').trim() || value;
}

/** The values of a fact that could answer the question. */
export function candidatesOf(frame: QuestionFrame, fact: Fact): Omit<Candidate, 'score' | 'coverage'>[] {
  const out: Omit<Candidate, 'score' | 'coverage'>[] = [];
  const labelled = fact.source !== 'text';
  if (
    frame.shape === 'person' ||
    frame.shape === 'org' ||
    (frame.shape === 'place' && frame.kinds.includes('address'))
  ) {
    const headingLine = fact.source === 'text' && fact.value === fact.heading;
    if (!headingLine && !/\baddress\b/i.test(frame.question))
      for (const name of nameSpans(fact.value)) {
        // "Who owns Keelwise?": not Keelwise.
        if (tokenize(name.text).every((token) => frame.terms.some((term) => term.term === token.term)))
          continue;
        // "Dr. Leena Virtanen of Aalto University": the person, without their organisation.
        const affiliation =
          frame.shape === 'person' ? /^(.+?\s\S+)\s+(?:of|from|at)\s+\p{Lu}/u.exec(name.text) : null;
        const person = affiliation
          ? { ...name, text: affiliation[1], end: name.start + affiliation[1].length }
          : name;
        out.push({ fact, text: person.text, kind: 'name', span: person });
      }
    if (frame.shape === 'place')
      for (const value of findValues(fact.value).filter(
        (value) => value.kind === 'address' || frame.kinds.includes(value.kind),
      ))
        out.push({ fact, text: value.text, kind: value.kind, span: value });
    if (labelled && fact.value.length <= 80)
      out.push({ fact, text: labelValue(fact.value), kind: 'label-value' });
    return out;
  }
  // A question heading ("What is the daily withdrawal limit?") asks; it does not answer.
  if (fact.source === 'text' && fact.value.endsWith('?')) return out;
  const asked = new Set(frame.terms.map((term) => term.term));
  const values = findValues(fact.value);
  for (const value of values) {
    if (frame.kinds.length > 0 && !frame.kinds.includes(value.kind)) {
      // A bare number whose fact names a unit of the asked kind ("Days events are kept. Default: 30").
      if (value.kind !== 'number' || !impliedUnit(frame, fact)) continue;
    }
    if (frame.kinds.length === 0 && (value.kind === 'name' || value.kind === 'year')) continue;
    if (tokenize(value.text).every((token) => asked.has(token.term))) continue;
    if (!dimensionFits(frame, value, fact)) continue;
    // "Where is the configuration file": a path, not any code word.
    if (
      value.kind === 'code' &&
      /\b(file|folder|directory|path)\b/i.test(frame.question) &&
      !/[/\\]|\.\w{1,5}$/.test(value.text)
    )
      continue;
    const text = value.text;
    out.push({ fact, text, kind: value.kind, span: value });
  }
  // "What is the X" answered by a labelled value as a whole ("Material: recycled polyester mesh"),
  // unless the value holds a value of the asked kind (then that value is the answer).
  if (
    labelled &&
    fact.value.length <= 80 &&
    (frame.kinds.length === 0 || frame.kinds[0] === 'code') &&
    fact.label &&
    !(frame.kinds.length > 0 && out.length > 0)
  )
    out.push({ fact, text: labelValue(fact.value), kind: 'label-value' });
  // A value in the heading above the fact ("3.1.4 — 2026-01-20" over "Fixed: a memory leak"), when
  // the fact itself has none of the kind asked for.
  // (Not under the page's title: a headline's "$1.1bn" is not said of every sentence of the article.)
  if (
    fact.heading &&
    !fact.underTitle &&
    fact.value !== fact.heading &&
    frame.kinds.length > 0 &&
    out.length === 0
  )
    // (Not a bare number: in a heading it is a model's name, "Burrmaster 60".)
    for (const value of findValues(fact.heading).filter(
      (entry) => frame.kinds.includes(entry.kind) && entry.kind !== 'number',
    ))
      out.push({ fact, text: value.text, kind: value.kind, span: value, fromHeading: true });
  return out;
}

export function score(
  frame: QuestionFrame,
  weighted: readonly Weighted[],
  contentWeight: number,
  candidate: Omit<Candidate, 'score' | 'coverage'>,
  fact: Fact,
): Candidate {
  const labelTokens = tokenize(fact.label);
  const labelLower = fact.label.toLowerCase();
  const valueTokens = tokenize(fact.value);
  const headingTokens = tokenize(fact.heading);
  const span = candidate.fromHeading ? undefined : candidate.span;
  const candidateTokens = span
    ? valueTokens.filter((token) => token.end > span.start && token.start < span.end)
    : valueTokens;
  const candidateSegment = candidateTokens[0]?.segment ?? 0;
  const isCandidate = (token: Token) => candidateTokens.includes(token);
  // Segments holding a value of the same kind as the candidate (rivals for the words there).
  const rivals = new Set<number>();
  // Other names of the sentence are rivals of a name ("led by chief executive Rowan Ellis and chaired by Prof. Amelia Shaw").
  const others =
    candidate.kind === 'name'
      ? nameSpans(fact.value).filter((name) => name.text.includes(' ') || !NOT_NAMES.test(name.text))
      : findValues(fact.value);
  if (span)
    for (const other of others)
      if ((other.kind === span.kind || frame.kinds.includes(other.kind)) && other.start !== span.start) {
        const token = valueTokens.find((entry) => entry.end > other.start && entry.start < other.end);
        if (token) rivals.add(token.segment);
      }

  let content = 0;
  let optional = 0;
  let cue = 0;
  let cueWeight = 0;
  let labelHits = 0;
  for (const { term, weight, subjectOf, usedOn } of weighted) {
    const subject = subjectOf.has(fact.page);
    const onPage = usedOn.has(fact.page);
    let support = 0;
    if (matchesText(term, labelTokens, labelLower)) {
      support = 1;
      labelHits += 1;
    } else {
      let best = 0;
      for (const [index, token] of valueTokens.entries()) {
        if (!termMatches(term, token.term)) continue;
        if (candidate.fromHeading) {
          best = Math.max(best, 0.7);
          continue;
        }
        // A counted noun or unit inside a quantity ("61 ships") supports it fully; a name's own words do not.
        if (isCandidate(token)) {
          if (candidate.kind !== 'name' && candidate.kind !== 'label-value')
            best = Math.max(best, sameWord(term, token.term) ? 1 : 0.85);
          continue;
        }
        const first = valueTokens.indexOf(candidateTokens[0] ?? token);
        const last = valueTokens.indexOf(candidateTokens[candidateTokens.length - 1] ?? token);
        // Words between them, function words counting half ("2 minutes on each side" is next to "side").
        const between =
          index < first ? valueTokens.slice(index + 1, first) : valueTokens.slice(last + 1, index);
        const distance = between.reduce((sum, entry) => sum + (isStopword(entry.lower) ? 0.5 : 1), 0);
        // Another part of an enumeration ("marathon €85, half marathon €55") describes its own value.
        const segment = token.segment === candidateSegment ? 1 : rivals.has(token.segment) ? 0.4 : 0.85;
        // Within its own clause a word describes the value however far it stands ("Apply by 15 May
        // with your CV to jobs@…").
        const near = segment / (1 + distance / 4);
        // The question's own word says more than a synonym ("founded in 2011" over "since 2022").
        const strength = sameWord(term, token.term) ? 1 : 0.85;
        best = Math.max(best, strength * (token.segment === candidateSegment ? Math.max(near, 0.5) : near));
      }
      if (
        best === 0 &&
        term.groups.length &&
        phraseGroups(fact.value.toLowerCase()).some((group) => term.groups.includes(group))
      )
        best = 0.6;
      // The heading above a short line (a plan's card, a list item) is what the line is about; a
      // question heading (an FAQ's) is what the answer below it answers.
      const headingSupport =
        fact.value === fact.heading || fact.underTitle
          ? 0.5
          : fact.heading.endsWith('?')
            ? 0.9
            : valueTokens.length <= 8
              ? 0.75
              : 0.5;
      if (best < headingSupport && !term.cue && matchesText(term, headingTokens, fact.heading.toLowerCase()))
        best = headingSupport;
      // A word of the page's own title or headline is said of everything on the page; a word the
      // page uses elsewhere ("course" on a course page) a little.
      if (best < 0.5 && subject) best = 0.5;
      if (best < 0.2 && onPage && !term.cue) best = 0.2;
      support = best;
    }
    if (term.cue) {
      cue += weight * support;
      cueWeight += weight;
    } else if (term.optional) optional += weight * support;
    else content += weight * support;
  }
  // Phrases the question names ("check-out", "chief executive") found with the value.
  if (frame.phraseGroups.length) {
    const found = phraseGroups(`${fact.label} ${fact.value}`.toLowerCase());
    cueWeight += 1;
    if (frame.phraseGroups.some((group) => found.includes(group))) cue += 1;
  }
  // Count questions: the counted noun right after the number ("14 warehouses").
  if (candidate.kind === 'count' && frame.countNoun && span?.noun) {
    const noun = stem(span.noun);
    // The noun itself counts fully, a synonym ("bedrooms" for "rooms") half.
    const fit =
      noun === frame.countNoun
        ? 1
        : groupsOf(noun).some((group) => groupsOf(frame.countNoun ?? '').includes(group))
          ? 0.5
          : 0;
    if (fit > 0) {
      cue += fit;
      cueWeight += 1;
    }
  }
  // The same for a number whose label is the counted noun ("Rooms: 3").
  if (
    (candidate.kind === 'number' || candidate.kind === 'count') &&
    frame.countNoun &&
    !span?.noun &&
    labelTokens.some((token) => token.term === frame.countNoun)
  ) {
    cue += 1;
    cueWeight += 1;
  }
  // Label words the question does not mention make a label a worse fit ("Checked bag weight" for "cabin bag").
  let extraFactor = 1;
  if (fact.label) {
    // Per label part ("Row | Column"): an unmatched part counts once, a matched part by its unmatched words.
    let extra = 0;
    for (const part of fact.label.split(' | ')) {
      const tokens = tokenize(part).filter((token) => token.lower.length > 2 && !/^\d+$/.test(token.lower));
      const unmatched = tokens.filter(
        (token) => !weighted.some(({ term }) => termMatches(term, token.term)),
      ).length;
      extra += unmatched === tokens.length ? Math.min(1, unmatched) : unmatched;
    }
    extraFactor = Math.pow(0.85, Math.min(4, extra));
  }
  // Without content words (the question is about the page's own subject: "How much is the
  // Ridgeline 12?"), the value's kind, the cue words and prominence decide.
  const optionalWeight = weighted
    .filter((entry) => entry.term.optional)
    .reduce((sum, entry) => sum + entry.weight, 0);
  const cueShare = cueWeight > 0 ? cue / cueWeight : 0;
  const coverage =
    (contentWeight > 0 ? content / contentWeight : TYPE_ONLY) +
    (optionalWeight > 0 ? (0.3 * optional) / optionalWeight : 0) +
    0.4 * cueShare;
  const kindIndex =
    candidate.kind === 'label-value' || candidate.kind === 'name'
      ? 0
      : Math.max(0, frame.kinds.indexOf(candidate.kind as ValueKind));
  let kindFit =
    candidate.kind === 'label-value'
      ? frame.kinds.length === 0
        ? 0.9
        : labelHits > 0
          ? 0.75
          : 0
      : (frame.kinds[0] === 'rate' || HOW_FAR.test(frame.question)) && kindIndex > 0
        ? 0.5 // "How often" / "how far": a duration is only a weak stand-in for a frequency or a distance.
        : 1 - 0.1 * kindIndex;
  // "What kind of support does Scale get?" over "Support: 24/7 phone": the labelled value as a
  // whole, not a number inside it.
  if (
    frame.kinds.length === 0 &&
    fact.source !== 'text' &&
    candidate.kind !== 'label-value' &&
    candidate.text !== labelValue(fact.value)
  )
    kindFit *= 0.85;
  if (candidate.kind === 'name' || candidate.kind === 'address')
    kindFit = span
      ? candidate.kind === 'address'
        ? Math.max(1, nameFit(frame, span, fact)) * 1.1
        : nameFit(frame, span, fact)
      : 0;
  // "Which university…": a name that carries the kind asked for ("University of Graz").
  if (
    candidate.kind === 'name' &&
    frame.typeNoun &&
    tokenize(candidate.text).some((token) => token.term === frame.typeNoun)
  )
    kindFit = Math.max(kindFit, 1) * 1.25;
  if (candidate.kind === 'code' && frame.shape === 'place')
    kindFit = /[/\\]/.test(candidate.text) ? 1.2 : 0.3;
  if ((candidate.kind === 'email' || candidate.kind === 'url') && frame.shape === 'place') kindFit = 1.2;
  if (
    candidate.kind === 'label-value' &&
    (frame.shape === 'person' || frame.shape === 'org' || frame.shape === 'place')
  ) {
    // A labelled value answers "who/which/where" when its label names the role and it reads as a name.
    const roleHit =
      weighted.some(
        ({ term }) =>
          (term.cue || ROLE_VERBS.has(term.word) || term.groups.length > 0) &&
          matchesText(term, labelTokens, labelLower),
      ) ||
      (frame.shape === 'place' && PLACE_LABEL.test(fact.label));
    const nameLike =
      !/\d/.test(candidate.text) &&
      /^\p{Lu}/u.test(candidate.text) &&
      candidate.text.split(/\s+/).length <= 8;
    kindFit = roleHit && (nameLike || frame.shape === 'place') ? 1.1 : 0;
  }
  const segments = fact.value.split(SEGMENT_BREAK);
  const segmentText = span ? (segments[candidateSegment] ?? fact.value) : fact.value;
  const qualifier = qualifierFactor(frame, qualifiersOf({ fact, span }, segmentText));
  const source = fact.source === 'structured' ? 1.1 : fact.source === 'text' ? 1 : 1.05;
  // A byline's date says when the page was written: it answers "when was it published", not
  // "when will the plant open".
  const bylineDate =
    (candidate.kind === 'date' || candidate.kind === 'year') &&
    (fact.byline ||
      /^(byline|author|date published|published time|modified time|date modified|date)$/i.test(fact.label)) &&
    !PUBLISHING.test(frame.question)
      ? 0.6
      : 1;
  const prominence = 1 + 0.12 / (1 + fact.order / 8);
  const value = coverage * kindFit * extraFactor * qualifier * source * prominence * bylineDate;
  return { ...candidate, score: value, coverage };
}
