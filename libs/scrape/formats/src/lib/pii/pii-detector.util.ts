import type { PII_ENTITIES } from '@quarry/contracts';

import { FIRST_NAMES, NON_PERSON_FOLLOWERS } from './first-names';

export type PiiEntity = (typeof PII_ENTITIES)[number];
export type PiiMode = 'fast' | 'accurate' | 'aggressive';

export interface PiiSpan {
  start: number;
  end: number;
  type: PiiEntity;
  text: string;
}

interface Rule {
  type: PiiEntity;
  pattern: RegExp;
  /** Capture group holding the sensitive part (default: the whole match). */
  group?: number;
  accept?: (text: string, match: RegExpExecArray, source: string) => boolean;
}

function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    let digit = Number(digits[index]);
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

function ibanValid(candidate: string): boolean {
  const iban = candidate.replace(/\s+/g, '').toUpperCase();
  if (iban.length < 15 || iban.length > 34) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = /[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

const NOT_A_PHONE_BEFORE =
  /(?:#|\bno\.?|\bnumber|\bticket|\bclaim|\binvoice|\border|\btracking|\bid|\bsku|\bisbn|\bversion|\bv|\bbuild|\bport|[$€£]|\bref\.?|\bprotocol|\bmember)\s*[:#]?\s*$/i;

function acceptPhone(text: string, match: RegExpExecArray, source: string): boolean {
  const digits = text.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return false;
  if (/^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$/.test(text) || /^\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}$/.test(text))
    return false;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(text)) return false;
  if (/^\d+$/.test(text) && !text.startsWith('+')) return false;
  const before = source.slice(Math.max(0, match.index - 24), match.index);
  if (NOT_A_PHONE_BEFORE.test(before)) return false;
  const groups = text.split(/[\s.()-]+/).filter(Boolean);
  // Real numbers come in groups of 2–4 digits (the country code and area code aside).
  if (groups.some((group) => group.length > 5 && !group.startsWith('+'))) return false;
  return (
    text.startsWith('+') || text.includes('(') || groups.length >= 3 || /^\d{3}[-.]\d{3}[-.]\d{4}$/.test(text)
  );
}

const STREET_SUFFIX =
  'Street|St\\.?|Avenue|Ave\\.?|Road|Rd\\.?|Boulevard|Blvd\\.?|Lane|Ln\\.?|Drive|Dr\\.?|Court|Ct\\.?|Way|Place|Pl\\.?|Parkway|Pkwy\\.?|Terrace|Square|Sq\\.?|Highway|Hwy\\.?|Circle|Cir\\.?|Parade|Crescent|Cres\\.?|Esplanade|Quay|Mews|Grove|Gardens|Alley';
const CITY_STATE_ZIP = `(?:,\\s*(?:Suite|Ste\\.?|Apt\\.?|Unit|Floor|#)\\s*[\\w-]+)?(?:,\\s*\\p{Lu}[\\p{L}.'-]+(?: \\p{Lu}[\\p{L}.'-]+)*){0,2}(?:,?\\s*[A-Z]{2}\\s+\\d{5}(?:-\\d{4})?|\\s+\\d{4}(?!\\d))?`;

/** Pattern rules, applied in order; an earlier rule's span wins over an overlapping later one. */
const RULES: Rule[] = [
  {
    type: 'SECRET',
    pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----\s*\n([\s\S]*?)\n\s*-----END [A-Z ]*PRIVATE KEY-----/g,
    group: 1,
  },
  { type: 'SECRET', pattern: /\b(?:sk|rk|pk)[-_](?:live[-_]|test[-_]|proj[-_])?[A-Za-z0-9_-]{16,}/g },
  // Environment-file lines whose name says what they hold: STRIPE_SECRET_KEY=…, DB_PASS=…
  {
    type: 'SECRET',
    pattern:
      /^\s*(?:export\s+)?[A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|PASS|PWD|API_KEY|APIKEY|PRIVATE_KEY|ACCESS_KEY|CREDENTIALS?)[A-Z0-9_]*\s*[=:]\s*["']?([^\s"']{6,})/gm,
    group: 1,
  },
  { type: 'SECRET', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { type: 'SECRET', pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g },
  { type: 'SECRET', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { type: 'SECRET', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { type: 'SECRET', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { type: 'SECRET', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:([^\s@/]+)@/gi, group: 1 },
  {
    type: 'SECRET',
    pattern:
      /\b(?:password|passwd|passphrase|pwd|secret|api[_ -]?key|apikey|access[_ -]?key|client[_ -]?secret|auth[_ -]?token|token)\b\s*(?::|=|\bis\b)\s*["'`]?([^\s"'`,;]{6,})/gi,
    group: 1,
    accept: (text) => /[0-9]/.test(text) || /[^A-Za-z]/.test(text),
  },
  { type: 'EMAIL', pattern: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g },
  {
    type: 'FINANCIAL',
    pattern: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g,
    accept: ibanValid,
  },
  {
    type: 'FINANCIAL',
    pattern: /\b(?:\d[ -]?){12,18}\d\b/g,
    accept: (text) => luhn(text.replace(/\D/g, '')) && !/^(\d)\1+$/.test(text.replace(/\D/g, '')),
  },
  { type: 'FINANCIAL', pattern: /\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/g },
  {
    type: 'FINANCIAL',
    pattern:
      /\b(?:account|acct|member(?:ship)?|policy|insurance|routing|sort code)\s*(?:no\.?|number|#|id)?\s*[:#]?\s*\(?(?:member number\s*)?([A-Z0-9](?:[A-Z0-9 -]{3,22})[0-9])\b/gi,
    group: 1,
    accept: (text) => /\d{4,}/.test(text.replace(/[\s-]/g, '')),
  },
  // An address sits on one line: spaces only between its words.
  {
    type: 'LOCATION',
    pattern: new RegExp(
      `\\b\\d{1,5}[A-Za-z]?[ \\t]+(?:\\p{Lu}[\\p{L}'.-]*[ \\t]+){1,4}(?:${STREET_SUFFIX})(?![\\p{L}])${CITY_STATE_ZIP}`,
      'gu',
    ),
  },
  {
    type: 'LOCATION',
    pattern:
      /\b\d{1,4}\s+(?:Rue|Avenue|Boulevard|Place|Via|Viale|Calle|Rua|Avenida|Chemin|Quai)\s+[\p{L}' -]{2,40}?(?:,\s*\d{4,5}\s+\p{Lu}[\p{L}-]+)?(?=[.,;\n]|$)/gu,
  },
  {
    type: 'LOCATION',
    pattern:
      /\b\p{Lu}[\p{L}-]*(?:straße|strasse|weg|allee|platz|gasse|ring|damm|laan|gracht|vej|gatan)\s+\d{1,4}[a-z]?(?:,\s*\d{4,5}\s+\p{Lu}[\p{L}-]+)?/gu,
  },
  {
    type: 'LOCATION',
    pattern:
      /\bP\.?\s?O\.?\s+Box\s+\d+(?:,\s*\p{Lu}[\p{L}.'-]+(?: \p{Lu}[\p{L}.'-]+)*){0,2}(?:,?\s*[A-Z]{2}\s+\d{5})?/gu,
  },
  { type: 'LOCATION', pattern: /(?<![\d.])-?\d{1,2}\.\d{3,},\s*-?\d{1,3}\.\d{3,}\b/g },
  {
    type: 'PHONE',
    pattern:
      /(?<![\w/.-])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{1,5}(?:[\s.-]\d{2,5}){1,4}(?![\w/-])/g,
    accept: acceptPhone,
  },
  {
    type: 'PERSON',
    pattern:
      /\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame|Rev)\.?\s+\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){0,2}/gu,
  },
];

const NAME_TOKEN = /\p{Lu}[\p{Ll}'’-]*\p{Ll}[\p{L}'’-]*/u;

/** Persons found by the name dictionary: a known given name, optionally followed by capitalised surnames. */
function dictionaryPersons(
  text: string,
  mode: PiiMode,
  taken: (start: number, end: number) => boolean,
): PiiSpan[] {
  const spans: PiiSpan[] = [];
  const token = /\p{Lu}[\p{L}'’-]+/gu;
  for (let match = token.exec(text); match; match = token.exec(text)) {
    const first = match[0];
    if (!FIRST_NAMES.has(first.toLowerCase())) continue;
    // "Max" is a name; "MAX" in MAX_UPLOAD_MB is not.
    if (
      !/\p{Ll}/u.test(first.slice(1)) ||
      text[match.index - 1] === '_' ||
      text[match.index + first.length] === '_'
    )
      continue;
    const start = match.index;
    let end = start + first.length;
    const rest = text.slice(end);
    const surname = /^ (\p{Lu}[\p{L}'’-]+)(?: (\p{Lu}[\p{L}'’-]+))?/u.exec(rest);
    const followers = [surname?.[1], surname?.[2]].filter((word): word is string => !!word);
    if (followers.some((word) => NON_PERSON_FOLLOWERS.has(word.toLowerCase()))) continue;
    if (followers[0] && NAME_TOKEN.test(followers[0])) end += 1 + followers[0].length;
    if (
      followers[1] &&
      NAME_TOKEN.test(followers[1]) &&
      FIRST_NAMES.has(followers[0]?.toLowerCase() ?? '') === false &&
      mode !== 'fast'
    ) {
      // "Nguyen Van An", "Mary Anne Smith": keep a second capitalised word only when the first is not itself a clause start.
      end += 1 + followers[1].length;
    }
    if (taken(start, end)) continue;
    spans.push({ start, end, type: 'PERSON', text: text.slice(start, end) });
    token.lastIndex = end;
  }
  return spans;
}

/** Capitalised names after words that introduce a person (aggressive mode). */
function cuedPersons(text: string, taken: (start: number, end: number) => boolean): PiiSpan[] {
  const spans: PiiSpan[] = [];
  // Cue words in either case; the name itself must be capitalised (no `i` flag: it would make \p{Lu} match any letter).
  const cue =
    /\b(?:[Ss]aid|[Ss]ays|[Bb]y|[Ff]rom|[Cc]ontact|[Dd]ear|[Tt]hanks|[Hh]i|[Hh]ello|[Nn]ame|[Ss]igned|[Rr]egards),?:?\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){0,2})/gu;
  for (let match = cue.exec(text); match; match = cue.exec(text)) {
    const name = match[1];
    const start = match.index + match[0].length - name.length;
    const words = name.split(/\s+/);
    if (words.some((word) => NON_PERSON_FOLLOWERS.has(word.toLowerCase()))) continue;
    if (taken(start, start + name.length)) continue;
    spans.push({ start, end: start + name.length, type: 'PERSON', text: name });
  }
  return spans;
}

/**
 * Offline PII detection by pattern and dictionary. `fast`: patterns only (emails, phones, cards and
 * bank numbers, secrets, addresses, titled names); `accurate`: plus given-name dictionary matches and
 * surnames seen in full names elsewhere on the page; `aggressive`: plus capitalised names after
 * introducing words.
 */
export function detectPii(
  text: string,
  options: { mode?: PiiMode; entities?: readonly PiiEntity[] } = {},
): PiiSpan[] {
  const mode = options.mode ?? 'accurate';
  const wanted = new Set<PiiEntity>(
    options.entities?.length
      ? options.entities
      : ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'],
  );
  const spans: PiiSpan[] = [];
  const taken = (start: number, end: number) => spans.some((span) => start < span.end && end > span.start);
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    for (let match = rule.pattern.exec(text); match; match = rule.pattern.exec(text)) {
      const group = rule.group ?? 0;
      const value = match[group];
      if (!value) continue;
      const start = match.index + (group === 0 ? 0 : match[0].indexOf(value));
      const trimmed = value.replace(/[\s,.;:]+$/u, '');
      const end = start + trimmed.length;
      if (rule.accept && !rule.accept(trimmed, match, text)) continue;
      if (taken(start, end)) continue;
      spans.push({ start, end, type: rule.type, text: trimmed });
    }
  }
  if (mode !== 'fast') {
    for (const span of dictionaryPersons(text, mode, taken)) spans.push(span);
    // A surname seen in a full name elsewhere names the same person when it appears alone.
    const surnames = new Set(
      spans
        .filter((span) => span.type === 'PERSON')
        .map((span) => span.text.split(/\s+/).pop() ?? '')
        .filter((name) => name.length > 2 && !FIRST_NAMES.has(name.toLowerCase())),
    );
    for (const surname of surnames) {
      const pattern = new RegExp(
        `(?<![\\p{L}])${surname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}])`,
        'gu',
      );
      for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
        if (!taken(match.index, match.index + surname.length))
          spans.push({
            start: match.index,
            end: match.index + surname.length,
            type: 'PERSON',
            text: surname,
          });
      }
    }
  }
  if (mode === 'aggressive') for (const span of cuedPersons(text, taken)) spans.push(span);
  return spans.filter((span) => wanted.has(span.type)).sort((a, b) => a.start - b.start);
}

export type ReplaceStyle = 'tag' | 'mask' | 'remove';

/** Replaces each span: `[EMAIL]` (tag), asterisks of the same length (mask), or nothing (remove). */
export function applyRedaction(text: string, spans: readonly PiiSpan[], style: ReplaceStyle = 'tag'): string {
  let out = '';
  let cursor = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    if (span.start < cursor) continue;
    out += text.slice(cursor, span.start);
    const original = text.slice(span.start, span.end);
    out += style === 'tag' ? `[${span.type}]` : style === 'mask' ? original.replace(/[^\s]/g, '*') : '';
    cursor = span.end;
  }
  return out + text.slice(cursor);
}
