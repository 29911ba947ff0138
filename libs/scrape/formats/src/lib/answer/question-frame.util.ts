import { isStopword, stem, words } from '../text/tokens.util';
import { groupsOf, IRREGULAR_PAST, phraseEntries, phraseGroups } from './lexicon.util';
import { CUE_WORDS, GENERIC_NOUNS, QUALIFIER_GROUPS, SOFT_WORDS } from './question-words.util';
import type { ValueKind } from './values.util';
import { relatedWords } from './wordnet-lexicon.util';

/** What a question asks for: a typed value, a name, the page's subject, yes/no, or a passage. */
export type AnswerShape = 'value' | 'person' | 'place' | 'org' | 'subject' | 'boolean' | 'open';

export interface QuestionTerm {
  /** Stemmed word. */
  term: string;
  /** The word as asked. */
  word: string;
  /** Lexicon groups of the word (synonyms count as a match). */
  groups: number[];
  /** WordNet relatives of the word, with how closely related (wordnet-lexicon.util). */
  related: ReadonlyMap<string, number>;
  /** A content word: when the page never mentions it (or a synonym), the page does not answer the question. */
  required: boolean;
  /** A word that names the kind of answer (weight, price, version…): matched against labels, never required. */
  cue: boolean;
  /** A generic noun or an event verb ("the company", "released"): support when found, never a requirement. */
  optional: boolean;
}

export interface QuestionFrame {
  question: string;
  shape: AnswerShape;
  /** Value kinds that answer it, best first (empty: any short value, or a passage). */
  kinds: ValueKind[];
  terms: QuestionTerm[];
  /** Phrase-level synonym groups named by the question ("chief executive"). */
  phraseGroups: number[];
  /** Qualifier groups the question names ("default", "before", "maximum"…). */
  qualifiers: Set<string>;
  /** "How many X": the counted noun, stemmed. */
  countNoun?: string;
  /** "Which university / company / bank…": the kind of name asked for, stemmed (names often carry it). */
  typeNoun?: string;
  /** "The cheapest …", "the longest …": the smallest or largest of the values that answer. */
  extreme?: 'min' | 'max';
}

const IMPERATIVE =
  /^(?:(?:please|can you|could you|would you|i (?:want|need|would like) to know|i(?:'d| would) like to know)\s+)?(?:find out|find|get|give me|tell me|show me|look up|extract|list|fetch|determine|identify|return|what's|whats)\s+/i;

const KIND_RULES: { test: RegExp; kinds: ValueKind[]; shape?: AnswerShape; cue?: RegExp }[] = [
  // "Who do I contact…", "Who should I email…": a contact (an e-mail address, a phone number, a
  // contact page), not a person's name.
  {
    test: /\b(?:who|whom) (?:do|should|can|could|would|must|to) (?:i |we |you )?(?:contact|e-?mail|write to|call|phone|ring|reach|ask|talk to|speak to|get in touch with)\b|\bhow (?:do|can|should|could) (?:i|we|you) (?:contact|reach|get in touch|book|reserve|make a (?:reservation|booking))\b|\bcontact (?:details|information|info)\b/,
    kinds: ['email', 'phone', 'url'],
    shape: 'value',
  },
  { test: /\be-?mail\b/, kinds: ['email'] },
  // "How do I install it with Homebrew?": the command.
  {
    test: /\bhow (?:do|can|should|would) (?:i|we|you) (?:install|uninstall|upgrade|update|run|start|launch|deploy|build|test|enable|disable)\b|\bwhat(?: is|'s)? the command\b|\bwhich command\b/,
    kinds: ['code'],
    shape: 'value',
    cue: /^(install|uninstall|upgrade|update|run|start|launch|deploy|build|test|enable|disable|command)$/,
  },
  // A phone number, not "the phone" a product page is about ("How heavy is the phone?").
  {
    test: /\b(?:phone|telephone|tel)[\s-]?(?:number|no)\b|\btelephone\b|\btel\b|\bnumber to call\b|\bcall (you|them|us)\b|\b(?:can|do|should) (?:i|we) (?:phone|ring)\b/,
    kinds: ['phone'],
  },
  { test: /\b(url|web ?site address|web address|homepage|link to)\b/, kinds: ['url'] },
  {
    test: /\bwhat (is|are) (being )?(sold|offered|advertised|for sale)\b|\bwhat (product|item|thing)s? (is|are) (this|here|sold|shown|on (this|the) page)\b|\bwhat (is|does) this (page|product|item|listing|site|shop) (about|sell|selling|offer)\b|\bwhich product\b|\bwhat (do|does) (they|you|this shop|the shop|the store) sell\b|\bname of (the|this) product\b/,
    kinds: [],
    shape: 'subject',
  },
  {
    test: /\bwhere\b.*\b(file|folder|directory|config|configuration|log|logs|stored on disk|installed)\b/,
    kinds: ['code'],
  },
  { test: /\bwhere\b.*\b(saved|written|kept|cached|put)\b/, kinds: ['code', 'address'], shape: 'place' },
  { test: /\b(noisy|noise|loud|loudness|quiet|decibels?)\b/, kinds: ['sound'] },
  {
    test: /\b(ip|listen|listening|server|bind|network|mac|host|socket|bluetooth|wallet)\s+address\b/,
    kinds: ['code', 'url', 'address'],
  },
  { test: /\baddress\b/, kinds: ['address'], shape: 'place' },

  // "What status code do I get": an HTTP status (a number), not a word of the page.
  {
    test: /\b(?:status|error|response|http|return) codes?\b/,
    kinds: ['number', 'code'],
    shape: 'value',
    cue: /^(?:status|response|http|code|codes)$/,
  },
  // "What's the order cutoff": a time (or a date) before which something must happen.
  { test: /\bcut-?\s?offs?\b|\bdeadline\b/, kinds: ['time', 'date'], cue: /^(?:cutoff|cut|off|deadline)$/ },
  {
    test: /\b(sku|isbn|ean|upc|gtin|mpn|model (number|no)|part (number|no)|article (number|no)|item (number|no)|product code|reference number|order number)\b/,
    kinds: ['code'],
    shape: 'value',
  },
  { test: /\bhow (often|frequently)\b|\bfrequency of\b/, kinds: ['rate', 'duration'] },
  { test: /\bhow many (hours|days|minutes|weeks|months|years|nights)\b/, kinds: ['duration'] },
  { test: /\buntil when\b/, kinds: ['time', 'date', 'year'] },
  // "What's the latest delivery time?": the end of a range of times ("between 7:00 and 22:00").
  { test: /\b(?:latest|earliest)\b.*\btimes?\b/, kinds: ['time'] },
  { test: /\bwhat time\b|\b(opening|closing) (time|hours?)\b|\bcheck-?\s?(in|out)\b/, kinds: ['time'] },
  {
    test: /\bwhere (can|do|should|to) (i|we|you)? ?(send|apply|submit|write|email|contact|reach)\b/,
    kinds: ['email', 'url', 'address'],
    shape: 'place',
    // "Where do I send my application": the verb says what kind of place, the page need not repeat it.
    cue: /^(send|apply|submit|write|email|contact|reach)$/,
  },
  // "When did they open?": since when, not at what time of day.
  { test: /\bwhen (did|was|were|has|have)\b.*\b(open|opened)\b/, kinds: ['year', 'date'] },
  {
    test: /\bwhen (does|do|is|are|will)\b.*\b(open|opens|close|closes|closed)\b/,
    kinds: ['time', 'date', 'year'],
  },
  {
    test: /^(since when|when)\b|\b(what|which) (date|day|year|month)s?\b|\bwhat year\b|\bdate of\b/,
    kinds: ['date', 'year', 'time'],
  },
  { test: /\b(version|release number)\b/, kinds: ['version', 'number', 'code'] },
  { test: /\btemperature\b|\bhow (hot|cold|warm)\b|\bdegrees\b/, kinds: ['temperature'] },
  { test: /\b(weigh|weighs|weight|heavy|heavier|heaviest|mass)\b/, kinds: ['mass'] },
  {
    test: /\bhow (long|many (hours|days|minutes|weeks|months|years|nights))\b|\b(duration|battery life|runtime|time limit|lifetime|lifespan|longest|shortest)\b/,
    kinds: ['duration', 'length', 'date'],
  },
  // "What's the notice period", "trial period": a duration.
  { test: /\bperiod\b/, kinds: ['duration', 'date'] },
  // "What's the minimum age", "how old do I have to be": an age, usually a bare number.
  { test: /\bhow old\b|\b(age|ages|aged)\b/, kinds: ['number', 'duration', 'count', 'year'] },
  { test: /\bhow (quickly|soon)\b/, kinds: ['duration', 'time', 'date'] },
  { test: /\bhow fast\b|\bspeed\b|\bfastest\b/, kinds: ['speed', 'power', 'duration', 'data', 'frequency'] },
  { test: /\bhow far\b|\bdistance\b|\brange\b/, kinds: ['length', 'duration'] },
  {
    test: /\bhow (tall|high|wide|deep|thick)\b|\b(height|width|depth|thickness|length)\b/,
    kinds: ['length'],
  },
  // "How many bikes do they rent out": a count, even when the question has a money word.
  {
    test: /\bhow many (?!(?:dollars|euros|pounds|francs|yen|cents|percent)\b)(?=.*\b(?:prices?|cost|costs|fees?|charge|charged|pay|paid|fares?|rent|rental|rented|hire|expensive|budget|salary|spend|spent|bill)\b)/,
    kinds: ['count', 'number'],
  },
  // "How much do I save", "what discount": a share or an amount off.
  { test: /\b(save|saves|saving|savings|discount|discounts|discounted)\b/, kinds: ['percent', 'money'] },
  {
    test: /\b(percent|percentage|per cent|proportion|uptime|by how much|what share)\b/,
    kinds: ['percent', 'money', 'count', 'number'],
  },
  {
    test: /\bhow much (is|are|was|were|to|for)\b|\b(prices?|cost|costs|costing|fees?|charge|charged|pay|paid|fares?|tuition|rent|expensive|cheap|budget|salary|worth|spend|spent|bill)\b/,
    kinds: ['money', 'percent'],
  },
  // "How much did they raise / earn / donate": money (not the count of who raised it).
  {
    test: /\bhow much\b.*\b(?:raise|raised|raising|earn|earned|earns|collect|collected|donate|donated|fund|funded|invest|invested|owe|owed|generate|generated|bring in|brought in|sell for|sold for|win|won)\b/,
    kinds: ['money', 'percent'],
  },
  { test: /\b(torque)\b/, kinds: ['torque'] },
  { test: /\bpressure\b/, kinds: ['pressure'] },
  { test: /\b(power|powerful|wattage|watts|output)\b/, kinds: ['power'] },
  { test: /\brefresh rate\b|\bclock speed\b/, kinds: ['frequency'] },
  { test: /\b(battery capacity|battery size|mah|calories|kcal|energy)\b/, kinds: ['energy'] },
  { test: /\b(storage|memory|ram|disk|bandwidth|data (limit|allowance))\b/, kinds: ['data'] },
  { test: /\b(resolution|megapixels?|sensor)\b/, kinds: ['resolution'] },
  { test: /\bfrequency\b|\bhz\b/, kinds: ['frequency'] },
  {
    test: /\bhow (big|large|small)\b|\b(size|dimensions?|measure|measurements|capacity|volume|biggest|largest|smallest)\b/,
    kinds: ['area', 'volume', 'length', 'data', 'mass', 'energy', 'count', 'number'],
  },
  // "How many beans fit in the hopper": a count, or a quantity of something counted by weight or volume.
  { test: /\bhow many\b/, kinds: ['count', 'number', 'mass', 'volume'] },
  {
    test: /\bhow much\b/,
    kinds: ['mass', 'volume', 'data', 'energy', 'length', 'area', 'percent', 'count', 'money', 'number'],
  },
];

const PERSON =
  /^(who|whom)\b|\bwhose\b|\bwhich (person|people|author|speaker)\b|\b(name of the|who is the) (author|writer|ceo|founder|owner|director|chair|president|manager|architect|designer|leader|speaker|editor|chef|illustrator|translator)\b/;
const PLACE =
  /^where\b|\bwhich (city|country|town|place|location|venue|region|state|street)\b|\bin what (city|country|town)\b/;
const ORG =
  /\bwhich (brand|company|manufacturer|firm|organi[sz]ation|bank|provider|vendor|database|framework|language|tool|library|platform|cloud|university|school|team|agency|club|charity|publisher|airline|studio|institute|college|hospital|operator|carrier|supplier|retailer|store|shop)\b|\bwhat (brand|company|manufacturer)\b|\bwho (makes|made|manufactures|produces|owns|owned|acquired|bought|publishes|sells)\b|\b(brand|manufacturer|maker)\b/;
const BOOLEAN = /^(is|are|was|were|does|do|did|can|could|will|would|has|have|had|should|may|must)\b/;
const OPEN =
  /^(why|how (do|does|can|could|should|would|to|is|are)|explain|describe|summari[sz]e)\b|\bused for\b|\bwhat happen(s|ed)\b|\bwhat (does|do|did) .+ do\b|\bwhich (is|wins|one)\b/;

/** Reads a question (or an imperative task) into what kind of answer it wants and which words must match. */
export function analyzeQuestion(question: string): QuestionFrame {
  const text = normalizeQuestion(question);
  const lower = text.toLowerCase();
  let kinds: ValueKind[] = [];
  let shape: AnswerShape = 'value';
  // Words of a proper name ("Brightwave Energy", "Harbour Press") do not say what kind of value is asked.
  const kindText = text
    .replace(/(?<!^)(?<![.?!]\s)\b\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+)*/gu, (name) =>
      /\s/.test(name) || !/^(?:What|How|When|Where|Who|Which)$/.test(name) ? ' NAME ' : name,
    )
    .toLowerCase();
  const rule = KIND_RULES.find((candidate) => candidate.test.test(kindText));
  if (rule) {
    kinds = rule.kinds;
    if (rule.shape) shape = rule.shape;
  }
  if (!rule?.shape) {
    if (
      PERSON.test(lower) &&
      !/\bwho (makes|made|manufactures|produces|publishes|owns|owned|acquired|bought)\b/.test(lower)
    )
      shape = 'person';
    else if (ORG.test(lower) && kinds.length === 0) shape = 'org';
    else if (PLACE.test(lower) && kinds.length === 0) shape = 'place';
    else if (PLACE.test(lower) && kinds[0] === 'address') shape = 'place';
    else if (BOOLEAN.test(lower) && kinds.length === 0) shape = 'boolean';
    else if (OPEN.test(lower) && kinds.length === 0) shape = 'open';
  }
  if (shape === 'person' || shape === 'org') kinds = [];
  if (shape === 'place' && kinds.length === 0) kinds = ['address'];

  const countNoun = countedNoun(lower);
  const qualifiers = new Set<string>();
  for (const [group, members] of Object.entries(QUALIFIER_GROUPS)) {
    if (members.some((member) => new RegExp(`\\b${member.replace(/[-/]/g, '\\$&')}\\b`).test(lower)))
      qualifiers.add(group);
  }
  // "from … to": only a qualifier when asked as such; "how much does X cost to …" is not "after".
  if (!/\b(now|today|currently|after)\b/.test(lower)) qualifiers.delete('after');
  // ("my old machine" is not an old price.)
  if (
    !/\b(before|previously|used to|originally)\b|\bold (price|cost|fee|rate|value|amount|figure|number|version)s?\b|\bold$/.test(
      lower,
    )
  )
    qualifiers.delete('before');
  if (!/\b(minimum|min|at least|lowest|shortest|smallest|fewest|cheapest)\b/.test(lower))
    qualifiers.delete('minimum');
  // "How cold can it operate?": the low end of a temperature range; "how hot": the high end.
  if (kinds[0] === 'temperature' && /\bhow (cold|low)\b|\b(coldest|lowest)\b/.test(lower))
    qualifiers.add('minimum');
  if (kinds[0] === 'temperature' && /\bhow (hot|warm|high)\b|\b(hottest|warmest|highest)\b/.test(lower))
    qualifiers.add('maximum');
  if (
    /\b(start|starts|starting|begin|begins|beginning|commence|commences|first day|opening day)\b/.test(lower)
  )
    qualifiers.add('start');
  if (/\b(end|ends|ending|finish|finishes|last day|closing day)\b/.test(lower)) qualifiers.add('end');
  // "What time do they close?": the end of an opening-hours range ("from 9:00 to 19:00"); "open":
  // its start. The verb names the end of the range asked for, the page need not repeat it.
  // "When does the early-bird price end?": the same for a date ("until 31 March").
  const hoursVerb = kinds[0] === 'time' || kinds[0] === 'date' ? HOURS_VERB.exec(lower)?.[1] : undefined;
  if (hoursVerb) qualifiers.add(/^(clos|shut|end|finish)/.test(hoursVerb) ? 'end' : 'start');
  if (kinds[0] === 'time' && /\blatest\b/.test(lower)) qualifiers.add('end');
  if (kinds[0] === 'time' && /\bearliest\b/.test(lower)) qualifiers.add('start');
  const typeMatch = shape === 'org' ? TYPE_NOUN.exec(lower) : null;
  const typeNoun = typeMatch?.[1];
  // "Which agency handles viewings": the verb after the kind of name is its role, said many ways.
  const typeVerb = typeMatch
    ? /^\s+(?:(?:was|were|is|are|has been|have been|got)\s+)?([a-z]+(?:s|ed))\b/.exec(
        lower.slice(typeMatch.index + typeMatch[0].length),
      )?.[1]
    : undefined;
  // "By how much did X improve": the verb says what changed, the page may say it another way.
  const byHowMuch = /\bby how much\b/.test(lower);
  // "How far can it go on one charge": a condition of the value, not what it is called.
  const condition = /\bon (?:one|a|a single|a full|one full|each) ([a-z]+)\b/.exec(lower)?.[1];
  // "How many students can join a class": the verb after the modal is what the count allows, said
  // many ways ("limited to 14 students", "Capacity: 14").
  // "How many people does it sleep / seat / serve": a capacity, said as "two-person" or "Sleeps 4".
  // "How far can the planes fly", "how much solar can I plug in": the same for other quantities.
  const modalVerb =
    /\bhow (?:many|much|far|long|fast|high|big|large|heavy)\b.*?\b(?:can|could|may|will|would|should)\s+(?:(?:i|we|you|they|it|he|she)\s+|(?:the|this|each|every|a|one|your|my|their|its)\s+[a-z]+\s+)?([a-z]+)\b/.exec(
      lower,
    )?.[1];
  const capacityVerb = countNoun
    ? /\bhow many\b.*?\b(?:do|does|did)\s+(?:it|they|he|she|we|you|(?:this|the|each|every|a|one|your|my|their|its) \w+)\s+([a-z]+)\b/.exec(
        lower,
      )?.[1]
    : undefined;
  // "How many planes did they buy?": the verb says loosely what happened to the counted things
  // ("ordered 12 aircraft"); when the counted noun is implied ("how many people does it employ"),
  // only a capacity verb ("Serves 6", "Sleeps 4") is.
  const capacity =
    capacityVerb !== undefined &&
    (CAPACITY_VERBS.test(capacityVerb) || !IMPLIED_COUNT_NOUNS.has(countNoun ?? ''))
      ? capacityVerb
      : undefined;
  // (Not a verb that names the kind of value: "how much will it cost".)
  const countVerb = [modalVerb, capacity].find(
    (verb) => verb !== undefined && !CUE_WORDS.has(verb) && !kindCue(verb, kinds),
  );
  // People are counted, not weighed: "how many" over people never answers with tonnes.
  if (countNoun && kinds.includes('mass') && PERSON_NOUNS.test(countNoun))
    kinds = kinds.filter((kind) => kind !== 'mass' && kind !== 'volume');

  const seen = new Set<string>();
  const terms: QuestionTerm[] = [];
  // Words of a lexicon phrase the question uses ("send back", "take place"): the phrase is matched as a whole.
  const phraseWords = new Set(phraseEntries(lower).flatMap((phrase) => phrase.split(/[\s-]+/)));
  // A capitalised word inside the question names something ("the Business plan", "Team"): not a
  // generic noun or a filler, whatever the word.
  const capitalised = [...text.matchAll(/(?<=\S\s+)\p{Lu}[\p{L}-]*/gu)].map((match) =>
    match[0].toLowerCase(),
  );
  // (A question typed in Title Case says nothing by its capitals.)
  const proper = new Set(capitalised.length * 2 <= words(text).length ? capitalised : []);
  const yesNo = BOOLEAN.test(lower);
  const all = words(lower);
  for (const [index, word] of all.entries()) {
    if (isStopword(word) && !/^\d/.test(word)) continue;
    const term = stem(word);
    if (seen.has(term)) continue;
    seen.add(term);
    // "Who runs Paylo?", "who heads the team": the role of a leader, however the page names it.
    const groups =
      shape === 'person' && /^(runs|run|running|heads|manages|leads)$/.test(word)
        ? [...groupsOf(term), ...LEADER_GROUPS]
        : groupsOf(term);
    // "How much is a day ticket?": a unit of time naming a kind of thing is what the question is about.
    const next = all[index + 1];
    const modifier =
      /^(day|night|week|month|year|hour|weekend)$/.test(word) &&
      next !== undefined &&
      !isStopword(next) &&
      !SOFT_WORDS.has(next) &&
      !CUE_WORDS.has(next);
    // "How many people does it serve": a page says "Serves 10"; a counted person noun may be implied.
    const isCounted = countNoun !== undefined && stem(countNoun) === term && !IMPLIED_COUNT_NOUNS.has(word);
    // "Do they sell bikes?": a yes/no question about selling is not answered by a page that only mentions bikes.
    const soft =
      !isCounted &&
      !proper.has(word) &&
      !(yesNo && /^(sell|sells|sold|selling)$/.test(word)) &&
      (SOFT_WORDS.has(word) || SOFT_WORDS.has(term));
    const qualifier = QUALIFIER_WORDS.has(word);
    const cueWord = CUE_WORDS.has(word) && !modifier;
    // "last year" is a time, not "how long does it last".
    const lastAsTime =
      word === 'last' &&
      /^(year|week|month|night|season|time|summer|winter|spring|autumn|weekend|day)$/.test(next ?? '');
    const cue =
      cueWord ||
      (kindCue(word, kinds) && !modifier && !lastAsTime) ||
      qualifier ||
      (soft && groups.length > 0);
    if ((soft || cueWord) && groups.length === 0 && !qualifier) continue;
    // Event verbs with synonyms ("released", "founded", "wrote") are often not repeated by the page,
    // which says "3.2.0 — 2026-02-10" or "By Tom Reyes"; a verb with no synonym must be found.
    // Other past participles ("were studied", "was replaced") describe the value loosely, except
    // for who-questions, where the role verb is what is asked ("Who illustrated the book?").
    // Yes/no questions keep their verb: "Is a camera provided?" is not answered by "Bring your own camera".
    const participle = /[a-z]{3,}ed$/.test(word) && shape !== 'person' && shape !== 'org' && !yesNo;
    const eventVerb =
      (groups.length > 0 && (ROLE_VERBS.has(word) || (/[a-z]{3,}ed$/.test(word) && !yesNo))) || participle;
    const inPhrase = phraseWords.has(word);
    // "How many files can be sent": a passive verb describes the value loosely ("Maximum files per request").
    const passive =
      shape !== 'person' &&
      shape !== 'org' &&
      (/[a-z]{3,}(?:ed|en)$/.test(word) || IRREGULAR_PAST.has(word)) &&
      new RegExp(
        `\\b(?:be|been|being${yesNo ? '' : '|(?:is|are|was|were)(?:\\s+[a-z]+){1,3}'})\\s+${word}\\b`,
      ).test(lower);
    const changeVerb = byHowMuch && groups.some((group) => CHANGE_GROUPS.has(group));
    const optional =
      !isCounted &&
      ((GENERIC_NOUNS.has(word) && !proper.has(word)) ||
        eventVerb ||
        inPhrase ||
        passive ||
        changeVerb ||
        word === condition ||
        word === countVerb ||
        word === typeVerb ||
        (countNoun === word && IMPLIED_COUNT_NOUNS.has(word)));
    const typeCue =
      word === hoursVerb || (typeNoun !== undefined && word === typeNoun) || (rule?.cue?.test(word) ?? false);
    terms.push({
      term,
      word,
      groups,
      // (A name is matched as written: "the Enterprise plan" is not a business plan.)
      related: /\d/.test(word) || word.length < 3 || proper.has(word) ? NO_RELATIVES : relatedWords(word),
      required: !soft && !cue && !optional && !typeCue && word.length > 1,
      cue: (cue && !optional) || typeCue,
      optional: optional && !typeCue,
    });
  }
  return {
    question: text,
    shape,
    kinds,
    terms,
    phraseGroups: phraseGroups(lower),
    qualifiers,
    countNoun: countNoun ? stem(countNoun) : undefined,
    typeNoun: typeNoun ? stem(typeNoun) : undefined,
    // ("Peak output" is the highest; "max"/"min" name a configured limit, not an extreme.)
    extreme: /\b(cheapest|lowest|smallest|shortest|lightest|fewest|least expensive)\b/.test(lower)
      ? 'min'
      : /\b(most expensive|priciest|highest|largest|biggest|longest|heaviest|fastest|peak)\b/.test(lower)
        ? 'max'
        : undefined,
  };
}

const NO_RELATIVES: ReadonlyMap<string, number> = new Map();

const CAPACITY_VERBS = /^(?:sleep|seat|fit|hold|serve|carry|accommodate|take|feed)s?$/;

/** Counted nouns a page often leaves implied ("Serves 10", "Sleeps 4", "Seats 5"). */
const IMPLIED_COUNT_NOUNS = new Set(['people', 'persons', 'person', 'guests', 'diners', 'adults', 'players']);
const PERSON_NOUNS =
  /^(people|persons?|staff|employees?|workers?|members?|users?|runners?|guests?|students?|children|kids?|adults?|visitors?|participants?|attendees?|passengers?|customers?|residents?|players?|volunteers?|speakers?)$/;

const HOURS_VERB =
  /\b(open|opens|close|closes|closing|shut|shuts|start|starts|begin|begins|end|ends|finish|finishes)\b(?!\s+(?:hours|times|days))/;
const TYPE_NOUN =
  /\b(?:which|what) (brand|company|manufacturer|firm|organi[sz]ation|bank|provider|vendor|university|school|college|institute|team|club|agency|publisher|airline|hospital|charity|foundation|studio|group|council|ministry|department|operator|carrier|supplier|retailer|store|shop)\b/;

/** Lexicon groups of a leader's role ("chief executive", "head", "director"). */
const LEADER_GROUPS = [...new Set(['ceo', 'leader', 'director'].flatMap((word) => groupsOf(stem(word))))];

/** Lexicon groups of words that say a value changed ("grow", "fall", "improve"). */
const CHANGE_GROUPS = new Set(['increase', 'decrease', 'improve'].flatMap((word) => groupsOf(stem(word))));

export const ROLE_VERBS = new Set(
  'wrote written write writes created create creates designed design designs led leads lead runs run founded found made makes make built build gives give giving directed directs manages manage owns owned published edited photographed composed invented started heads chairs hosts presents'.split(
    ' ',
  ),
);
const QUALIFIER_WORDS = new Set(
  Object.values(QUALIFIER_GROUPS)
    .flat()
    .filter((member) => !member.includes(' ')),
);
const AUXILIARY =
  /^(are|is|was|were|do|does|did|can|could|will|would|has|have|had|come|comes|in|on|per|of|for|with|at|there|get|make|made)$/;

/** "How many cruise ships called" → "ships": the noun phrase after "how many", up to its verb. */
function countedNoun(lower: string): string | undefined {
  const after = /\bhow many ([a-z-]+(?: [a-z-]+){0,4})/.exec(lower)?.[1];
  if (!after) return undefined;
  const phrase: string[] = [];
  for (const word of after.split(' ')) {
    if (AUXILIARY.test(word) || (phrase.length > 0 && /[a-z]{3,}ed$/.test(word))) break;
    phrase.push(word);
  }
  // "How many people work at…": the counted noun is the last plural, not the verb after it.
  const plural = [...phrase].reverse().find((word) => /[^s]s$/.test(word) || PLURALS.has(word));
  return plural ?? phrase.pop();
}

const PLURALS = new Set(['people', 'children', 'men', 'women', 'staff', 'feet', 'teeth', 'mice', 'geese']);

/** Words that name the kind of value asked for: they match labels but the page need not repeat them. */
function kindCue(word: string, kinds: ValueKind[]): boolean {
  if (kinds.length === 0) return false;
  return /^(deadline|share|proportion|portion|fraction|pay|paid|pays|paying|spend|last|lasts|lasted|price|prices|cost|costs|fee|fees|file|files|folder|directory|path|weight|weigh|weighs|mass|date|year|time|version|number|amount|percentage|percent|temperature|speed|size|dimensions?|capacity|volume|length|height|width|depth|distance|duration|address|phone|telephone|email|e-mail|url|rate|frequency|resolution|power|pressure|torque|energy|much|many|long|far|big|large|tall|wide|deep|heavy|often|quickly|fast|soon|hot|cold|longest|shortest|biggest|largest|smallest|heaviest|fastest)$/.test(
    word,
  );
}

export function normalizeQuestion(question: string): string {
  return expandContractions(
    question
      .replace(/\s+/g, ' ')
      .trim()
      .replace(IMPERATIVE, '')
      .replace(/^(the|a|an)\s+/i, (article) => article)
      .replace(/[?.!]+$/, ''),
  );
}

/** "Who's", "what's", "don't", "I'm": the words they stand for (a possessive "Acme's" stays). */
function expandContractions(text: string): string {
  return text
    .replace(/\b(who|what|where|when|how|which|there|it|that|here)['’]s\b/gi, '$1 is')
    .replace(/\b(\p{L}+)n['’]t\b/giu, (_match, stem: string) =>
      /^(ca|wo)$/i.test(stem) ? (stem.toLowerCase() === 'ca' ? 'can not' : 'will not') : `${stem} not`,
    )
    .replace(/\b(\p{L}+)['’](re|ll|ve|d|m)\b/giu, (_match, word: string, ending: string) => {
      const full: Record<string, string> = { re: 'are', ll: 'will', ve: 'have', d: 'would', m: 'am' };
      return `${word} ${full[ending.toLowerCase()]}`;
    });
}
