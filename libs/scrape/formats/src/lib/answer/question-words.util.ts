import { stem } from '../text/tokens.util';

// The words of questions (answer/question-frame): fillers, generic nouns, cue words and
// qualifiers. The page vocabulary they are matched against is in lexicon.util.ts.

/**
 * Group members that say the attribute only loosely ("since 2022" is not always a founding date,
 * "use" not always a battery life): a match through them counts less than through a close synonym.
 */
export const WEAK_SYNONYMS = new Set(
  'since use work people person space drive keep held load join hit current latest support call max maximum team sun sat'
    .split(' ')
    .map(stem),
);

/** Verbs and fillers of questions that carry no content ("does it have", "give", "tell me"). */
export const SOFT_WORDS = new Set(
  (
    'is are was were be been being do does did done doing have has had having get gets got give gives gave given ' +
    'make made take takes took taken come comes came use uses used using need needs want wants find tell show list ' +
    'know say said see look offer offers include includes included includ allow allows contain contains go goes ' +
    'there here it its they them their this that these those you your we our us me my i he she her his him one ' +
    'please exactly approximately roughly currently sold sell sells selling offered already even again seen saw sees ' +
    'available possible kind type sort way ever actually really also still yet already get ' +
    'something anything everything someone anyone somebody anybody nothing whatever set'
  ).split(/\s+/),
);

/**
 * Nouns a question uses for the page or its subject ("the article", "the company", "this
 * product"): they count when the page repeats them near a value, and are never required.
 */
export const GENERIC_NOUNS = new Set(
  (
    'thing things page site website web product item stuff article post story piece blog entry document listing ' +
    'announcement content contents level value amount figure quantity details detail information info company firm ' +
    'business organisation organization corporation recipe customer customers contact support service period ' +
    // What a page about one event or place is ("the conference", "the restaurant"): pages name it instead.
    'event conference festival concert exhibition summit meetup fair restaurant cafe hotel museum venue shop store'
  ).split(/\s+/),
);

/** Question words and type cues: they say what kind of answer is wanted, not what it is about. */
export const CUE_WORDS = new Set(
  (
    'what whats which who whom whose when where why how much many long far big large small tall wide deep heavy ' +
    'often old fast quickly soon time date year day month number amount value total exact ' +
    'place located location situated held hosted away'
  ).split(/\s+/),
);

/** Contrasting qualifiers: a value described by one member does not answer a question naming another. */
export const QUALIFIER_GROUPS: Record<string, string[]> = {
  maximum: [
    'maximum',
    'max',
    'most',
    'up to',
    'at most',
    'highest',
    'top',
    'longest',
    'biggest',
    'largest',
    'heaviest',
    'fastest',
  ],
  minimum: [
    'minimum',
    'min',
    'least',
    'at least',
    'lowest',
    'from',
    'starting',
    'starting at',
    'starts at',
    'shortest',
    'smallest',
    'fewest',
    'cheapest',
  ],
  default: ['default', 'by default'],
  before: [
    'before',
    'previously',
    'previous',
    'was',
    'were',
    'used to',
    'originally',
    'old',
    'from',
    'rrp',
    'instead of',
  ],
  after: ['now', 'currently', 'current', 'today', 'new', 'after', 'to', 'latest'],
  regular: ['regular', 'standard', 'normal', 'full'],
  express: ['express', 'expedited', 'next-day', 'priority'],
  early: ['early bird', 'early', 'advance'],
  online: ['online', 'web', 'in advance'],
  onsite: ['at the airport', 'at the door', 'on the day', 'on site', 'onsite', 'in store'],
  total: ['total', 'overall', 'in total', 'altogether', 'combined', 'all in'],
  // The period a price or a quota is for ("$19 / month billed monthly", "$182 / year").
  monthly: ['monthly', 'per month', 'a month', 'each month', 'every month', 'month-to-month', 'per mo'],
  yearly: ['yearly', 'annual', 'annually', 'per year', 'a year', 'each year', 'every year', 'per annum'],
};
