import { isStopword, stem } from '../text/tokens.util';
import {
  dimensionComponent,
  dimensionFits,
  impliedUnit,
  labelValue,
  nameFit,
  NOT_NAMES,
  PLACE_LABEL,
  qualifierFactor,
  qualifiersOf,
} from './answer-fit.util';
import {
  matchesText,
  sameGroup,
  SEGMENT_BREAK,
  termMatches,
  termStrength,
  textStrength,
  type Token,
  tokenize,
  type Weighted,
} from './answer-terms.util';
import { groupsOf, phraseGroups } from './lexicon.util';
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

const HOW_FAR = /\bhow far\b/i;
/** Questions about the page's own writing ("When was it published?", "date of the article"). */
const PUBLISHING =
  /\b(publish\w*|post|posted|written|wrote|write|updated?|article|story|blog|piece|report|review|interview|dated?)\b/i;
/** Support given to every value of the asked kind when the question names nothing but the page's subject. */
export const TYPE_ONLY = 0.25;

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
    const component = dimensionComponent(frame, value, fact);
    if (component) {
      out.push({ fact, text: component, kind: 'length', span: value });
      continue;
    }
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
  // "What license is it under?": a name next to the question's words ("the MIT licence").
  if (frame.kinds.length === 0 && frame.shape === 'value' && /^(what|which)\b/i.test(frame.question))
    for (const name of nameSpans(fact.value))
      if (
        !tokenize(name.text).every((token) => asked.has(token.term)) &&
        !NOT_NAMES.test(name.text) &&
        !values.some((value) => value.start <= name.start && value.end >= name.end)
      )
        out.push({ fact, text: name.text, kind: 'name', span: name });
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
    const labelled = textStrength(term, labelTokens, labelLower);
    if (labelled > 0) {
      support = labelled;
      labelHits += 1;
    } else {
      let best = 0;
      for (const [index, token] of valueTokens.entries()) {
        const strength = termStrength(term, token);
        if (strength === 0) continue;
        if (candidate.fromHeading) {
          best = Math.max(best, 0.7);
          continue;
        }
        // A counted noun or unit inside a quantity ("61 ships") supports it fully; a name's own words do not.
        if (isCandidate(token)) {
          if (candidate.kind !== 'name' && candidate.kind !== 'label-value')
            best = Math.max(best, strength === 1 ? 1 : sameGroup(term, token.term) ? 0.85 : strength);
          // "Which university…": "University of Leeds" says it is one.
          else if (candidate.kind === 'name' && term.term === frame.typeNoun) best = 1;
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
    // (Matched by any member of the group: "how old" by "Minimum age 16".)
    const text = `${fact.label} ${fact.value}`.toLowerCase();
    const found = [...phraseGroups(text), ...tokenize(text).flatMap((token) => groupsOf(token.term))];
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
        (token) => !weighted.some(({ term }) => termMatches(term, token)),
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
  // A year answers "when" as well as a full date does ("founded in 2019").
  const asKind = candidate.kind === 'year' && frame.kinds.includes('date') ? 'date' : candidate.kind;
  const kindIndex =
    asKind === 'label-value' || asKind === 'name' ? 0 : Math.max(0, frame.kinds.indexOf(asKind as ValueKind));
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
  // "How much is Brightmere paying?": a share is a poor stand-in for an amount of money, unless the
  // question is about a discount, a rate or a tax.
  if (
    candidate.kind === 'percent' &&
    frame.kinds[0] === 'money' &&
    !/\b(discount|off|sav\w*|rate|tax|vat|interest|commission|tip|fee)\b/i.test(frame.question)
  )
    kindFit *= 0.75;
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
  // The byline's name wrote the page; it does not run the company the page is about.
  const bylineName =
    candidate.kind === 'name' &&
    (fact.byline || /^(byline|author|author name)$/i.test(fact.label)) &&
    !PUBLISHING.test(frame.question) &&
    !/\b(author|by|writer|journalist|reporter|correspondent|photographer|editor|recipe)\b/i.test(
      frame.question,
    )
      ? 0.6
      : 1;
  const prominence = 1 + 0.12 / (1 + fact.order / 8);
  const value = coverage * kindFit * extraFactor * qualifier * source * prominence * bylineDate * bylineName;
  return { ...candidate, score: value, coverage };
}
