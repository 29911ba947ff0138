import { stem } from '../text/tokens.util';

/** Irregular verb forms, base form first (a stemmer cannot relate "left" to "leave"). */
const IRREGULAR_VERBS: string[][] = (
  'leave left|begin began begun|build built|buy bought|come came|find found|get got gotten|give gave given|go went gone|' +
  'grow grew grown|hold held|keep kept|know knew known|lead led|lose lost|make made|meet met|pay paid|run ran|say said|' +
  'sell sold|send sent|speak spoke spoken|spend spent|stand stood|take took taken|teach taught|tell told|think thought|' +
  'win won|write wrote written|drink drank drunk|rise rose risen|fall fell fallen|drive drove driven|choose chose chosen|bring brought|' +
  'catch caught|fly flew flown|eat ate eaten|see saw seen|break broke broken|wear wore worn|feel felt|sit sat|' +
  'shut shut|close closed|open opened|sink sank sunk|burn burnt burned|hide hid hidden|ride rode ridden|swim swam swum|' +
  'throw threw thrown|draw drew drawn|freeze froze frozen|steal stole stolen|lend lent|bend bent|light lit|set set'
)
  .split('|')
  .map((forms) => forms.split(' '));

/** Past forms of irregular verbs ("sent", "kept", "held"). */
export const IRREGULAR_PAST = new Set(IRREGULAR_VERBS.flatMap((forms) => forms.slice(1)));

/**
 * Words that name the same attribute on web pages (a question's "weigh" and a spec table's
 * "Weight", "CEO" and "Chief Executive Officer"). General vocabulary of product, article,
 * company, event, travel and documentation pages; phrases are matched as phrases.
 */
const GROUPS: string[][] = [
  [
    'price',
    'prices',
    'priced',
    'cost',
    'costs',
    'costing',
    'fee',
    'fees',
    'pay',
    'paid',
    'fare',
    'fares',
    'tariff',
    'expensive',
    'cheap',
    'amount',
    'rrp',
    'msrp',
    'rent',
    'rental',
  ],
  ['weight', 'weigh', 'weighs', 'heavy', 'heaviness', 'mass'],
  ['length', 'long', 'lengthy'],
  ['height', 'tall', 'high'],
  ['width', 'wide', 'broad'],
  ['depth', 'deep', 'water resistant', 'water-resistant', 'waterproof', 'dive', 'diving', 'submersible'],
  ['distance', 'far', 'away'],
  ['size', 'big', 'large', 'small', 'dimension', 'dimensions', 'measure', 'measures', 'measurements'],
  ['capacity', 'volume', 'hold', 'holds'],
  ['power', 'powerful', 'wattage', 'watts', 'output', 'rated power'],
  ['apply', 'application', 'applications', 'applicant', 'applicants', 'applying'],
  ['origin', 'region', 'country', 'comes from', 'produced in', 'made in', 'grown in'],
  [
    'duration',
    'last',
    'lasts',
    'lasting',
    'runtime',
    'life',
    'long',
    'playback',
    'listening',
    'talk time',
    'use',
  ],
  [
    'founded',
    'found',
    'founding',
    'established',
    'establish',
    'set up',
    'started',
    'since',
    'began',
    'formed',
    'incorporated',
    'existed',
    'exist',
  ],
  ['headquarters', 'headquartered', 'hq', 'head office', 'based', 'main office'],
  [
    'employees',
    'employ',
    'employs',
    'employed',
    'staff',
    'people',
    'workforce',
    'headcount',
    'person',
    'workers',
    'work',
    'team members',
  ],
  ['ceo', 'chief executive', 'chief executive officer', 'managing director', 'run by'],
  ['cfo', 'chief financial officer', 'finance director'],
  ['cto', 'chief technology officer', 'chief technical officer'],
  ['coo', 'chief operating officer'],
  [
    'author',
    'authors',
    'wrote',
    'written',
    'writer',
    'byline',
    'created',
    'creator',
    'recipe by',
    'words by',
  ],
  ['publisher', 'published by', 'imprint'],
  ['brand', 'make', 'makes', 'maker', 'manufacturer', 'manufactures', 'manufactured', 'produced', 'producer'],
  ['published', 'posted', 'publication', 'publish'],
  ['released', 'release', 'launched', 'launch', 'came out', 'introduced', 'added', 'shipped'],
  ['address', 'located', 'location', 'find us', 'street'],
  ['phone', 'telephone', 'tel', 'call', 'phone number'],
  ['email', 'e-mail', 'mail'],
  ['open', 'opening', 'opens', 'hours', 'opening hours', 'opening times'],
  ['close', 'closes', 'closing', 'closed', 'until'],
  ['start', 'starts', 'begin', 'begins', 'beginning', 'commence', 'commences', 'kick off'],
  ['end', 'ends', 'finish', 'finishes', 'completion', 'complete', 'deadline', 'closes'],
  ['servings', 'serves', 'serving', 'portions', 'yield', 'makes'],
  ['calories', 'calorie', 'kcal', 'energy'],
  ['rooms', 'room', 'bedrooms'],
  ['rent', 'rental', 'monthly rent'],
  ['deposit', 'security deposit', 'bond'],
  ['range', 'distance'],
  ['speed', 'fast', 'quick', 'top speed', 'maximum speed', 'assisted', 'assistance'],
  ['storage', 'disk', 'space', 'disk space', 'ssd', 'hdd', 'drive'],
  ['ram', 'memory'],
  ['class', 'classes', 'session', 'sessions', 'lesson', 'lessons', 'lecture', 'lectures'],
  ['thick', 'thickness', 'thin', 'slim'],
  ['seats', 'seat', 'users', 'licences', 'members'],
  ['version', 'release', 'latest', 'current'],
  ['licence', 'license', 'licensed', 'licensing'],
  ['warranty', 'guarantee', 'guaranteed'],
  ['requirements', 'required', 'require', 'requires', 'prerequisites', 'need', 'needed', 'needs'],
  ['sugar', 'sugars'],
  ['fibre', 'fiber'],
  ['salt', 'sodium'],
  ['carbohydrate', 'carbohydrates', 'carbs'],
  ['trial', 'free trial'],
  ['uptime', 'availability', 'sla'],
  [
    'stored',
    'store',
    'storage',
    'hosted',
    'host',
    'data centre',
    'data center',
    'data centres',
    'data centers',
    'saved',
    'save',
    'kept',
    'written to',
  ],
  ['backup', 'backups', 'backed up', 'back up'],
  ['refund', 'refunds', 'refunded', 'money back', 'reimbursed'],
  ['return', 'returns', 'returned', 'send back'],
  [
    'delivery',
    'deliver',
    'delivered',
    'shipping',
    'ship',
    'shipped',
    'dispatch',
    'dispatched',
    'postage',
    'arrive',
    'arrives',
  ],
  ['check-in', 'check in', 'arrival'],
  ['check-out', 'check out', 'departure'],
  ['ticket', 'tickets', 'admission', 'entry', 'entrance', 'registration'],
  ['student', 'students', 'concession', 'concessions'],
  ['children', 'child', 'kids', 'kid'],
  ['adult', 'adults'],
  ['tuition', 'tuition fees', 'fees'],
  [
    'leader',
    'leads',
    'lead',
    'led',
    'head',
    'director',
    'chair',
    'chaired',
    'manager',
    'in charge',
    'coordinator',
    'convenor',
    'run by',
    'chief executive',
  ],
  ['designer', 'designed', 'design', 'architect'],
  // A configured limit is often named by its maximum ("max_memory", "Maximum payload").
  ['limit', 'limits', 'limited', 'allowance', 'allowed', 'cap', 'max', 'maximum'],
  ['timeout', 'time out', 'times out', 'timed out', 'cancelled'],
  ['cargo', 'freight', 'tonnage', 'goods'],
  // What a request, a vehicle or a drone carries ("max payload", "request body", "total load").
  ['payload', 'payloads', 'request body', 'body size', 'request size', 'load', 'loads'],
  ['fly', 'flies', 'flying', 'flight', 'flights', 'airtime', 'air time', 'hover'],
  ['age', 'ages', 'aged', 'years old', 'year old', 'year-old', 'how old'],
  [
    'sign-up',
    'sign up',
    'signup',
    'joining',
    'join',
    'enrolment',
    'enrollment',
    'registration',
    'activation',
    'set-up fee',
    'setup fee',
    'admin fee',
  ],
  [
    'book',
    'booking',
    'bookings',
    'reserve',
    'reservation',
    'reservations',
    'reserved',
    'book a table',
    'reserve a table',
    'book a room',
    'book an appointment',
    'make an appointment',
  ],
  ['move in', 'move-in', 'moving in', 'available from', 'availability', 'vacant', 'free from', 'ready from'],
  [
    'removal',
    'remove',
    'take away',
    'takeaway',
    'haul away',
    'disposal',
    'dispose',
    'recycling',
    'collect old',
  ],
  ['appliance', 'appliances', 'machine', 'machines', 'device', 'devices'],
  ['notice', 'notice period', 'cancel', 'cancellation', 'terminate', 'termination'],
  ['repair', 'repairs', 'repaired', 'fix', 'fixes', 'fixed', 'fixing', 'mend', 'mending'],
  [
    'exceed',
    'exceeds',
    'exceeding',
    'exceeded',
    'hit',
    'hits',
    'reach',
    'reached',
    'go over',
    'over the limit',
  ],
  ['cutoff', 'cut-off', 'cut off', 'order by', 'placed before', 'order before', 'deadline'],
  [
    'owner',
    'owners',
    'owns',
    'owned',
    'ownership',
    'belongs to',
    'part of',
    'subsidiary of',
    'parent company',
    'acquired',
    'bought',
  ],
  [
    'grow',
    'grew',
    'growth',
    'grown',
    'increase',
    'increased',
    'rise',
    'rose',
    'improve',
    'improved',
    'improvement',
    'boost',
    'boosted',
    'gain',
    'gained',
  ],
  [
    'fall',
    'fell',
    'drop',
    'dropped',
    'decrease',
    'decreased',
    'decline',
    'declined',
    'cut',
    'saving',
    'saved',
    'reduce',
    'reduced',
  ],
  ['bill', 'spend', 'spending', 'invoice'],
  ['born', 'birth', 'birthday'],
  [
    'research',
    'researched',
    'researchers',
    'study',
    'studies',
    'studied',
    'survey',
    'experiment',
    'experiments',
  ],
  ['memory', 'memories', 'remember', 'remembered', 'recall', 'recalled', 'memorise', 'memorize'],
  ['raise', 'raised', 'raising', 'fundraising', 'donate', 'donated', 'donation', 'donations', 'collected'],
  ['contact', 'email', 'e-mail', 'write to', 'get in touch', 'reach', 'support', 'call'],
  ['phd', 'doctorate', 'doctoral'],
  ['papers', 'publications', 'articles'],
  ['battery', 'batteries', 'per charge', 'on a charge', 'single charge'],
  ['loan', 'loans', 'loaned', 'lend', 'lends', 'lent', 'borrow', 'borrowed', 'borrowing', 'keep'],
  ['charge', 'charging', 'charged', 'recharge'],
  ['bags', 'bag', 'baggage', 'luggage', 'suitcase'],
  ['temperature', 'degrees', 'hot', 'warm', 'cold', 'heat', 'oven'],
  ['display', 'screen'],
  ['resolution', 'megapixels', 'megapixel', 'mp'],
  ['attendees', 'visitors', 'participants', 'delegates', 'guests'],
  ['keynote', 'opening talk'],
  // Who a podcast or an interview is with.
  [
    'guest',
    'guests',
    'talks to',
    'talks with',
    'speaks to',
    'speaks with',
    'joined by',
    'interview with',
    'in conversation with',
    'interviewee',
  ],
  ['venue', 'take place', 'held', 'location'],
  ['default', 'by default'],
  ['configuration', 'config', 'settings'],
  ['withdraw', 'withdrawal', 'withdrawals', 'cash'],
  ['replacement', 'replace', 'new card'],
  ['abroad', 'foreign', 'other currencies', 'international'],
  ['runners', 'participants', 'entrants'],
  ['noise', 'noisy', 'loud', 'loudness', 'quiet', 'decibels', 'decibel', 'db', 'sound'],
  [
    'weekdays',
    'weekday',
    'monday - friday',
    'monday-friday',
    'monday to friday',
    'mon - fri',
    'mon-fri',
    'working days',
  ],
  ['weekend', 'weekends', 'saturday and sunday', 'sat-sun'],
  // Irregular verb forms (a stemmer cannot relate "left" to "leave").
  ...IRREGULAR_VERBS,
];

const PHRASES = new Map<string, number>();
const STEMS = new Map<string, number[]>();
GROUPS.forEach((group, index) => {
  for (const entry of group) {
    if (entry.includes(' ') || entry.includes('-')) PHRASES.set(entry, index);
    else STEMS.set(stem(entry), [...(STEMS.get(stem(entry)) ?? []), index]);
  }
});

/** Groups a stemmed word belongs to. */
export function groupsOf(term: string): number[] {
  return STEMS.get(term) ?? [];
}

/** Lexicon phrases found in a lower-cased text. */
export function phraseEntries(text: string): string[] {
  return [...PHRASES.keys()].filter((phrase) =>
    new RegExp(`\\b${phrase.replace(/[-/]/g, '\\$&')}\\b`).test(text),
  );
}

/** Groups named by phrases in a lower-cased text ("chief executive", "set up"). */
export function phraseGroups(text: string): number[] {
  const found: number[] = [];
  const normalized = text.replace(/\s*[–—-]\s*/g, ' - ').replace(/\s+/g, ' ');
  for (const [phrase, group] of PHRASES)
    if (text.includes(phrase) || normalized.includes(phrase.replace(/\s*-\s*/g, ' - '))) found.push(group);
  return found;
}

/**
 * Group members that say the attribute only loosely ("since 2022" is not always a founding date,
 * "use" not always a battery life): a match through them counts less than through a close synonym.
 */
export const WEAK_SYNONYMS = new Set(
  'since use work people person space drive keep held load join hit current latest support call max maximum'
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
