/**
 * Typed values in text: amounts of money, quantities with units, dates, times, counts, contact
 * details, versions and names — what a factual question asks for. Language-independent where it
 * can be (numbers, symbols, ISO dates); English unit and month words otherwise.
 */

export type ValueKind =
  | 'money'
  | 'mass'
  | 'length'
  | 'area'
  | 'volume'
  | 'duration'
  | 'time'
  | 'date'
  | 'year'
  | 'percent'
  | 'data'
  | 'energy'
  | 'power'
  | 'torque'
  | 'pressure'
  | 'frequency'
  | 'speed'
  | 'temperature'
  | 'resolution'
  | 'sound'
  | 'count'
  | 'number'
  | 'email'
  | 'phone'
  | 'url'
  | 'version'
  | 'code'
  | 'rate'
  | 'name'
  | 'address';

export interface ValueSpan {
  kind: ValueKind;
  /** The value as it should be answered. */
  text: string;
  start: number;
  end: number;
  /** For counts: the noun counted ("420 people" → "people"). */
  noun?: string;
  /** Words right before the value that qualify it ("was", "from", "up to"…), lower-cased. */
  before: string;
}

const MONTH =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec';
const WEEKDAY =
  '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)';
const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?`;
/** Amounts may group thousands with spaces ("32 000 Kč", "1 200 PLN"). */
const AMOUNT = String.raw`\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?(?!\d)|${NUMBER}`;
const MODIFIER = String.raw`(?:up to|more than|less than|fewer than|over|under|about|around|approximately|approx\.?|nearly|almost|at least|at most|from|by|within|every|only|just|roughly|some|circa|max\.?|min\.?|maximum|minimum)`;
const RANGE_JOIN = String.raw`\s?(?:–|—|-|to|and)\s?`;

/** ISO codes of currencies written before or after amounts ("CZK 32,000", "1 200 PLN"). */
const CODES =
  'USD|EUR|GBP|CHF|SEK|NOK|DKK|ISK|JPY|CNY|RMB|HKD|SGD|KRW|INR|CAD|AUD|NZD|CZK|PLN|HUF|BGN|ZAR|BRL|MXN';
const CURRENCY_BEFORE = String.raw`(?:[$€£¥₹]|US\$|A\$|C\$|NZ\$|${CODES}|\bRs\.?)`;
const CURRENCY_AFTER = String.raw`(?:€|euros?|${CODES}|dollars?|pounds sterling|francs?|kronor|kroner|krona|krone|kr\.?|Kč|zł|yen|p|pence|cents?|ct)`;
const SCALE = String.raw`(?:\s?(?:million|billion|thousand|bn|m|k)\b)?`;
const PERIOD = String.raw`(?:\s?(?:per|a|an|\/|each|every)\s?(?:month|year|annum|night|day|week|hour|person|seat|user|head|mo|yr|ticket|slice|guest|adult|child|kg|item|km|mile|kwh|unit|litre|liter|gallon|lb|gb|night)\b|\s?p\.?\s?[ma]\.?(?=\s|$))?`;

/** Unit words by kind; each entry is a regular expression alternative. */
const UNITS: [ValueKind, string][] = [
  ['speed', String.raw`km\/h|kph|mph|m\/s|knots?|rpm|RPM|r\/min`],
  [
    'area',
    String.raw`m²|m2|km²|sq\.?\s?m|sq\.?\s?ft|square (?:metres?|meters?|feet|foot|miles?|kilometres?|kilometers?)|hectares?|ha|acres?`,
  ],
  ['volume', String.raw`ml|cl|dl|l|L|litres?|liters?|gallons?|gal|fl\.?\s?oz|m³`],
  ['mass', String.raw`mg|g|gr|grams?|kg|kilos?|kilograms?|t|tonnes?|tons?|lbs?|oz|ounces?`],
  [
    'length',
    String.raw`nautical miles?|mm|cm|m|km|metres?|meters?|kilometres?|kilometers?|millimetres?|millimeters?|centimetres?|centimeters?|inch(?:es)?|″|ft|feet|foot|yards?|yd|miles?|mi`,
  ],
  [
    'duration',
    String.raw`ms|milliseconds?|secs?|seconds?|s|mins?|minutes?|h|hrs?|hours?|(?:working |business |calendar )?days?|weeks?|months?|years?|yrs?|nights?`,
  ],
  ['data', String.raw`KB|kB|MB|GB|TB|PB|KiB|MiB|GiB|TiB|Mbps|Gbps`],
  ['energy', String.raw`kJ|kcal|Cal|calories|cal|Wh|kWh|mAh|Ah|J`],
  ['power', String.raw`W|kW|MW|watts?|hp|horsepower|bhp`],
  ['torque', String.raw`Nm`],
  ['pressure', String.raw`bar|psi|kPa|hPa|Pa|atm`],
  ['frequency', String.raw`Hz|kHz|MHz|GHz`],
  ['temperature', String.raw`°\s?[CF]|º\s?[CF]|degrees(?: Celsius| Fahrenheit| C| F)?`],
  ['resolution', String.raw`MP|megapixels?|px|pixels?|dpi|fps`],
  ['percent', String.raw`%|percent|per cent|percentage points`],
  ['sound', String.raw`dB|dBA|dB\(A\)|decibels?`],
];
const UNIT_ALTERNATIVES = UNITS.map(([, pattern]) => pattern).join('|');
const ADJECTIVAL_UNITS: Record<string, [ValueKind, string]> = {
  metre: ['length', 'metres'],
  meter: ['length', 'meters'],
  kilometre: ['length', 'kilometres'],
  kilometer: ['length', 'kilometers'],
  km: ['length', 'km'],
  mile: ['length', 'miles'],
  inch: ['length', 'inches'],
  foot: ['length', 'feet'],
  cm: ['length', 'cm'],
  mm: ['length', 'mm'],
  minute: ['duration', 'minutes'],
  hour: ['duration', 'hours'],
  day: ['duration', 'days'],
  week: ['duration', 'weeks'],
  month: ['duration', 'months'],
  year: ['duration', 'years'],
  second: ['duration', 'seconds'],
  litre: ['volume', 'litres'],
  liter: ['volume', 'liters'],
  megapixel: ['resolution', 'megapixels'],
  kg: ['mass', 'kg'],
  gram: ['mass', 'grams'],
  percent: ['percent', 'percent'],
};
const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  hundred: 100,
};

function unitKind(unit: string): ValueKind | undefined {
  for (const [kind, pattern] of UNITS)
    if (new RegExp(`^(?:${pattern})$`, kind === 'volume' ? '' : 'i').test(unit)) return kind;
  return undefined;
}

interface Rule {
  kind: ValueKind | ((match: RegExpExecArray) => ValueKind | undefined);
  pattern: RegExp;
  /** Rewrites the matched text (e.g. adjectival units to plurals). */
  text?: (match: RegExpExecArray) => string;
  noun?: (match: RegExpExecArray) => string | undefined;
}

const wordBoundaryEnd = String.raw`(?![\p{L}\p{N}])`;
const RULES: Rule[] = [
  { kind: 'email', pattern: /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g },
  { kind: 'url', pattern: /\bhttps?:\/\/[^\s)>\]]+/g },
  {
    kind: 'phone',
    // Not followed by a unit: "38 32 41 cm" is a size, "021 448 2030 or book online" a number to call.
    pattern: new RegExp(
      String.raw`(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,5}\)[\s.-]?)?\d{2,5}(?:[\s.-]\d{2,5}){1,4}(?![\d,.]*\s?(?:%|×|x\s?\d|(?:${UNIT_ALTERNATIVES})(?![\p{L}])))`,
      'gu',
    ),
  },
  { kind: 'date', pattern: /\b\d{4}-\d{2}-\d{2}\b/g },
  // "Friday 24 to Sunday 26 July 2026", "24 June – 2 July".
  {
    kind: 'date',
    pattern: new RegExp(
      String.raw`\b(?:${WEEKDAY},?\s)?\d{1,2}(?:st|nd|rd|th)?(?:\s(?:${MONTH}))?\s?(?:to|until|till|through|and|–|—|-)\s?(?:${WEEKDAY},?\s)?\d{1,2}(?:st|nd|rd|th)?\.?\s(?:${MONTH})\b\.?(?:,?\s\d{4})?`,
      'gi',
    ),
  },
  // Quarters and halves of a year ("in the fourth quarter", "Q3 2026", "the first half of 2027").
  {
    kind: 'date',
    pattern:
      /\b(?:(?:first|second|third|fourth|final|last|1st|2nd|3rd|4th)\s(?:quarter|half)|Q[1-4]|H[12])\b(?:\s(?:of\s)?\d{4}\b)?/gi,
  },
  {
    kind: 'date',
    pattern: new RegExp(
      String.raw`\b(?:${WEEKDAY},?\s)?\d{1,2}(?:st|nd|rd|th)?(?:\s?[–-]\s?\d{1,2}(?:st|nd|rd|th)?)?\.?\s(?:${MONTH})\b\.?(?:,?\s\d{4})?`,
      'gi',
    ),
  },
  {
    kind: 'date',
    pattern: new RegExp(
      String.raw`\b(?:${WEEKDAY},?\s)?(?:${MONTH})\.?\s\d{1,2}(?:st|nd|rd|th)?(?:\s?[–-]\s?\d{1,2})?(?:,?\s\d{4})?\b`,
      'gi',
    ),
  },
  {
    kind: 'date',
    pattern: new RegExp(String.raw`\b(?:(?:early|mid|late)[\s-])?(?:${MONTH})\.?\s\d{4}\b`, 'gi'),
  },
  // Seasons answer "when" too ("prune roses in late winter").
  {
    kind: 'date',
    pattern:
      /\b(?:(?:next|last|this)\s)?(?:(?:early|mid|late)[\s-])?(?:spring|summer|autumn|fall|winter)(?:\s\d{4})?\b/gi,
  },
  {
    kind: 'time',
    pattern: new RegExp(
      String.raw`\b(?:${MODIFIER}\s)?(?:[01]?\d|2[0-3]):[0-5]\d(?:\s?[ap]\.?m\.?)?(?:\s?(?:–|—|-|to|until|till)\s?(?:[01]?\d|2[0-3]):[0-5]\d(?:\s?[ap]\.?m\.?)?)?(?!\d)|\b\d{1,2}\s?[ap]\.?m\.?(?:\s?(?:–|-|to)\s?\d{1,2}\s?[ap]\.?m\.?)?`,
      'gi',
    ),
  },
  {
    kind: 'money',
    pattern: new RegExp(
      String.raw`(?:${MODIFIER}\s)?${CURRENCY_BEFORE}\s?(?:${AMOUNT})${SCALE}(?:${RANGE_JOIN}${CURRENCY_BEFORE}?\s?(?:${AMOUNT})${SCALE})?${PERIOD}`,
      'gi',
    ),
  },
  {
    kind: 'money',
    pattern: new RegExp(
      String.raw`(?:${MODIFIER}\s)?(?:${AMOUNT})(?:${RANGE_JOIN}(?:${AMOUNT}))?${SCALE}\s?${CURRENCY_AFTER}${wordBoundaryEnd}${PERIOD}`,
      'giu',
    ),
  },
  // "1 hour 10 minutes", "2 h 30 min", "3 days and 4 hours": one duration.
  {
    kind: 'duration',
    pattern:
      /\b\d+\s?(?:days?|h|hrs?|hours?)(?:,?\s(?:and\s)?\d+\s?(?:h|hrs?|hours?|mins?|minutes?)){1,2}\b/gi,
  },
  {
    kind: 'version',
    pattern:
      /\bv?\d+\.\d+\.\d+(?:[-.][\w.]+)?\b(?:\s(?:or later|or newer|or above|or higher|and (?:later|above|up)))?/gi,
  },
  {
    kind: 'version',
    pattern:
      /\b(?:version|v\.?|release|kernel|node\.?js|python|java|bluetooth|wi-?fi|android|ios|usb)\s?(\d+(?:\.\d+)*\b(?:\s(?:or later|or newer|or above|or higher))?)/gi,
    // The version, not the product named before it ("kernel 5.10 or later" → "5.10 or later").
    text: (match) => match[1],
  },
  {
    kind: (match) => unitKind(match[2] ?? '') ?? undefined,
    pattern: new RegExp(
      String.raw`(?:${MODIFIER}\s)?(?:(?<=^|[\s(])[−-](?=\d))?(?:\d+\s?[×x]\s?)?(?:${NUMBER})(?:\s?[×x]\s?(?:${NUMBER})){0,2}(?:${RANGE_JOIN}(?:${NUMBER}))?(?:\s(?:million|billion|thousand))?(\s?)(${UNIT_ALTERNATIVES})${wordBoundaryEnd}(?:\s?(?:–|-|to|or)\s?(?:${NUMBER})\s?(?:${UNIT_ALTERNATIVES})${wordBoundaryEnd})?`,
      'gu',
    ),
  },
  {
    kind: (match) => ADJECTIVAL_UNITS[(match[2] ?? '').toLowerCase()]?.[0],
    pattern:
      /(?:(?:up to|about|around|over|under|a|an)\s)?(\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty)-(metre|meter|kilometre|kilometer|km|mile|inch|foot|cm|mm|minute|hour|day|week|month|year|second|litre|liter|megapixel|kg|gram|percent)\b/gi,
    text: (match) => {
      const number = /^\d/.test(match[1])
        ? match[1]
        : String(NUMBER_WORDS[match[1].toLowerCase()] ?? match[1]);
      const unit = ADJECTIVAL_UNITS[match[2].toLowerCase()]?.[1] ?? match[2];
      return `${number} ${number === '1' ? unit.replace(/s$/, '') : unit}`;
    },
  },
  {
    kind: 'rate',
    pattern:
      /\b(?:every\s(?:(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twelve|other)\s)?(?:seconds?|minutes?|hours?|days?|nights?|weeks?|months?|years?|morning|evening)|hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|annually|yearly|twice a (?:day|week|month|year)|once a (?:day|week|month|year))\b/gi,
  },
  {
    kind: 'count',
    pattern:
      /\b((?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-(?:one|two|three|four|five|six|seven|eight|nine)|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)[\s-](?:(?:new|more|extra|full-time|part-time|weekly|daily|monthly|annual|yearly|separate|individual|additional|[a-z]+-[a-z]+)\s)?([a-z][a-z-]{2,})/gi,
    text: (match) => `${match[1]} ${match[2]}`,
    noun: (match) => match[2],
  },
  {
    kind: 'count',
    pattern: new RegExp(
      String.raw`(?:${MODIFIER}\s)?(?<![\d.,:])(\d{1,3}(?:,\d{3})+|\d+)(?![.,:]?\d)[\s-](?:(?:new|more|extra|full-time|part-time|weekly|daily|monthly|annual|yearly|separate|individual|additional|active|registered|[a-z]+-[a-z]+)\s)?([a-z][a-z-]{2,})(?:\s(?:per|a|an|each)\s(?:second|minute|hour|day|week|month|year|person|user|page|request))?`,
      'g',
    ),
    noun: (match) => match[2],
  },
  // A part of a counted whole ("56 of the companies").
  {
    kind: 'count',
    pattern: /\b(\d{1,3}(?:,\d{3})+|\d+)\sof\s(?:the|its|our|their|these|those)\s([a-z][a-z-]{2,})/g,
    text: (match) => match[1],
    noun: (match) => match[2],
  },
  // Durations in words ("three weeks", "eight weeks").
  {
    kind: 'duration',
    pattern:
      /\b(?:(?:up to|about|around|over|under|at least|at most)\s)?(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty)\s(?:seconds?|minutes?|hours?|days?|nights?|weeks?|months?|years?)\b/gi,
  },
  // How many times something may happen ("can be renewed twice").
  {
    kind: 'rate',
    pattern:
      /\b(?:twice|thrice|(?:three|four|five|six|seven|eight|nine|ten|\d+)\stimes)\b(?!\s(?:a|an|per|each|every)\s)/gi,
  },
  // "Membership is free", "free of charge": a price of nothing (not "free delivery", an attribute).
  {
    kind: 'money',
    pattern:
      /(?<=\b(?:is|are|was|were|remains|stays|it's)\s(?:completely\s|entirely\s|always\s|totally\s)?)free\b|\bfree of charge\b|(?<=\bfor\s)free\b/gi,
  },
  { kind: 'year', pattern: /(?<![\d.,:-])(?:1[5-9]\d\d|20\d\d)(?![\d.,:-]?\d)/g },
  // Older years only after a word that introduces a date ("completed in 1432").
  {
    kind: 'year',
    pattern:
      /(?<=\b(?:in|since|from|by|until|circa|c\.|around|year|of|built|founded)\s)1[0-4]\d\d(?![\d.,:-]?\d)/gi,
  },
  // Ordinals ("4th of 5", "2nd floor" → "2nd").
  { kind: 'number', pattern: /\b\d{1,3}(?:st|nd|rd|th)\b(?:\s(?:of|out of)\s\d{1,3}\b)?/gi },
  {
    kind: 'number',
    pattern: new RegExp(String.raw`(?:${MODIFIER}\s)?(?<![\w.,:-]|\d-)(?:${NUMBER})(?![\w]|[.,:-]\d)`, 'g'),
  },
];

const NOT_COUNT_NOUNS = new Set(
  (
    'and the for per with from was were are has had have will can may that this which who than into out off ago times ' +
    'percent years year days day hours minutes after before since until when while during between about onto under ' +
    'over through across along among against around behind below beside beyond near toward towards upon within ' +
    'without via plus minus each respectively alone only also again then there here its their his her our your'
  ).split(' '),
);

const NAME =
  /(?:(?:Dr|Prof|Mr|Mrs|Ms|Sir|Dame|Capt|Captain)\.?\s)?\p{Lu}[\p{Ll}\p{Lu}'’.-]*(?:\s(?:(?:de|van|von|der|den|da|di|del|la|le|of|the|&|and|du|dos|bin)\s)?\p{Lu}[\p{L}'’.-]*){0,5}/gu;

/** Capitalised word runs: people, places, organisations, product names (disambiguated by the caller). */
const LEADING_NOISE =
  /^(?:By|In|At|On|From|To|For|With|Posted|Written|Said|Says|Since|After|Before|During|Today|Yesterday|Meet|Contact|Call|Email|Visit|Ask|And|But|Or|If|When|Where|While|Our|Your|Their|His|Her|This|That|These|Those|Every|Each|Dear|Hi|Hello|Photo|Photos|Words|Text|Interview|Led|Chaired|Run|Founded|Designed|Created|Edited|Reviewed|Updated|Host|Hosts|Guest|Guests|Author|Editor|Director|Chef|President|Chair|Chairman|Chairwoman|Founder|Presenter|Speaker|Narrator|Producer|Manager|Coach|Architect|Photographer|Reporter|Correspondent|Curator|Conductor|Captain|Coordinator|Instructor|Teacher|Tutor|Lecturer)\s+/;

export function nameSpans(text: string): ValueSpan[] {
  const out: ValueSpan[] = [];
  for (const match of text.matchAll(NAME)) {
    let start = match.index ?? 0;
    let value = match[0].replace(/[.,'’-]+$/, '');
    // "By Tom Reyes" is Tom Reyes, written by: the leading word moves to `before`.
    for (let noise = LEADING_NOISE.exec(value); noise; noise = LEADING_NOISE.exec(value)) {
      start += noise[0].length;
      value = value.slice(noise[0].length);
    }
    if (value.length < 2) continue;
    // "The Salt Road" keeps its article; a lone sentence-initial capital word is only a name with more words.
    // "Head coach: Priya Nair. Boathouse: …": a name ends with its sentence.
    value = value.replace(/(?<=\s\S*\p{Ll}{3})\.\s.*$/u, '');
    value = value.replace(/\s(?:and|&|of|the)$/i, '');
    out.push({
      kind: 'name',
      text: value,
      start,
      end: start + value.length,
      before: wordsBefore(text, start),
    });
  }
  return out;
}

const ADDRESS =
  /\b(?:\p{Lu}[\p{L}'’.-]*\s){0,3}\p{Lu}?[\p{L}'’.-]*(?:stra(?:ß|ss)e|str\.|street|st\.|road|rd\.|lane|avenue|ave\.?|gade|gata|gate|vej|veien|weg|platz|plein|laan|way|square|boulevard|blvd\.?|place|drive|allee|straat|gasse|via|rue|calle)\s\d{1,4}[a-z]?\b(?:,?\s\d{4,6}\s\p{Lu}[\p{L}-]+)?|\b(?:\p{Lu}[\p{L}'’.-]*\s){1,3}(?:Street|Road|Lane|Avenue|Way|Square|Boulevard|Drive|Place)\s\d{1,4}[a-z]?\b(?:,\s\p{Lu}[\p{L}-]+(?:\s[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b)?|,?\s\d{4,6}\s\p{Lu}[\p{L}-]+)?|\b\d{1,4}[a-z]?\s(?:\p{Lu}[\p{L}'’.-]*\s){1,3}(?:Street|St\.|Road|Rd\.|Lane|Avenue|Ave\.?|Way|Square|Boulevard|Drive|Place)\b(?:,\s\p{Lu}[\p{L}-]+(?:\s[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b)?)?/gu;

function wordsBefore(text: string, start: number): string {
  return text
    .slice(Math.max(0, start - 24), start)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}~\s]+/gu, ' ')
    .trim()
    .split(/\s+/)
    .slice(-2)
    .join(' ');
}

/** Every typed value in `text`, longest first where spans overlap (a money range beats its numbers). */
export function findValues(text: string): ValueSpan[] {
  const found: ValueSpan[] = [];
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    for (let match = rule.pattern.exec(text); match; match = rule.pattern.exec(text)) {
      if (match[0].trim() === '') {
        rule.pattern.lastIndex += 1;
        continue;
      }
      let kind = typeof rule.kind === 'function' ? rule.kind(match) : rule.kind;
      if (!kind) continue;
      // "every 15 minutes" is how often, not how long.
      if (kind === 'duration' && /^every\s/i.test(match[0].trim())) kind = 'rate';
      const raw = match[0].replace(/\s+$/, '');
      const start = match.index + (match[0].length - match[0].trimStart().length);
      const noun = rule.noun?.(match);
      // "fell from $18,000 to $10,200" is a change between two values, not a range.
      const change = /^from\s+(.+?)\s+to\s+(.+)$/i.exec(raw.trim());
      if (change && /\d/.test(change[1]) && /\d/.test(change[2]) && kind !== 'time') {
        const second = start + raw.trim().lastIndexOf(change[2]);
        found.push({
          kind,
          text: change[1],
          start: start + 5,
          end: start + 5 + change[1].length,
          before: 'from',
        });
        found.push({ kind, text: change[2], start: second, end: second + change[2].length, before: 'to' });
        continue;
      }
      if (kind === 'count' && (!noun || NOT_COUNT_NOUNS.has(noun) || unitKind(noun))) continue;
      // "in 2006 after…" is a year, not 2006 of something.
      if (kind === 'count' && noun && /^(1[5-9]\d\d|20\d\d)$/.test(match[1] ?? '') && !noun.endsWith('s'))
        continue;
      if (kind === 'phone' && raw.replace(/\D/g, '').length < 7) continue;
      if (kind === 'phone' && /^\d{4}-\d{2}-\d{2}$/.test(raw)) continue;
      found.push({
        kind,
        text: rule.text ? rule.text(match) : raw.trim(),
        start,
        end: start + raw.trim().length,
        ...(noun ? { noun } : {}),
        before: wordsBefore(text, start),
      });
    }
  }
  for (const match of text.matchAll(ADDRESS)) {
    const start = match.index ?? 0;
    found.push({
      kind: 'address',
      text: match[0],
      start,
      end: start + match[0].length,
      before: wordsBefore(text, start),
    });
  }
  for (const match of text.matchAll(/`([^`\n]{2,120})`/g)) {
    const start = (match.index ?? 0) + 1;
    found.push({
      kind: 'code',
      text: match[1],
      start,
      end: start + match[1].length,
      before: wordsBefore(text, start - 1),
    });
  }
  // Keep the most specific reading of each stretch: a span inside a longer span of another kind yields.
  const priority = (value: ValueSpan) =>
    value.kind === 'number' || value.kind === 'year' || value.kind === 'count' ? 1 : 0;
  return found
    .sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start) || priority(a) - priority(b))
    .filter(
      (value, index, all) =>
        !all.some(
          (other, otherIndex) =>
            otherIndex !== index &&
            other.start <= value.start &&
            other.end >= value.end &&
            (other.end - other.start > value.end - value.start ||
              (other.end - other.start === value.end - value.start && otherIndex < index)) &&
            !compatibleOverlap(value, other),
        ),
    );
}

/** Overlaps that are both worth keeping: a year inside a date is dropped, a count noun inside a name is not a conflict. */
function compatibleOverlap(inner: ValueSpan, outer: ValueSpan): boolean {
  if (outer.kind === 'code') return true;
  if (inner.kind === 'count' && outer.kind === 'address') return false;
  return false;
}

/** A numeric reading of a value's first number (for comparisons), or NaN. */
export function numericValue(text: string): number {
  const match = /\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?/.exec(text);
  return match ? Number(match[0].replace(/,/g, '')) : Number.NaN;
}
