// Relations between English words read from WordNet 3.1 (the generated wordnet-lexicon.json; see
// tools/lexicon/build-answer-lexicon.ts): synonyms, an adjective and the attribute it measures
// ("tall" → "height"), derived forms ("configure" → "configuration"), and nouns with their
// hypernyms ("chicken" → "poultry"). The answer reader matches a question's words against page
// words through them, more weakly than through the word itself or the hand lexicon.

interface LexiconFile {
  lines: string[];
}

interface Line {
  kind: '=' | '>' | '^' | '^^';
  words: string[];
}

interface Lexicon {
  lines: Line[];
  /** Lines each word is on. */
  index: Map<string, number[]>;
}

/** How close each kind of relation is (the question's own word counts 1, a hand synonym 0.85). */
const STRENGTH: Record<Line['kind'], number> = { '=': 0.75, '>': 0.75, '^': 0.55, '^^': 0.45 };

let loaded: Lexicon | undefined;

/** Whether the lexicon has been read (it is read on the first question, not on import). */
export function lexiconLoaded(): boolean {
  return loaded !== undefined;
}

/** The lexicon, read on first use (not when the formats library is imported). */
function lexicon(): Lexicon {
  if (loaded) return loaded;
  // A synchronous, lazy load: the bundle keeps the JSON as its own module, evaluated on this call.
  const file = require('./wordnet-lexicon.json') as LexiconFile;
  const lines: Line[] = [];
  const index = new Map<string, number[]>();
  for (const text of file.lines) {
    const kind = (text.startsWith('^^') ? '^^' : text[0]) as Line['kind'];
    const words = text.slice(kind.length).split(' ');
    for (const word of words) {
      const list = index.get(word);
      if (list) list.push(lines.length);
      else index.set(word, [lines.length]);
    }
    lines.push({ kind, words });
  }
  loaded = { lines, index };
  return loaded;
}

const lemmaCache = new Map<string, string[]>();

/**
 * The lexicon's entries a word form may be ("outlets" → "outlet", "flew" stays unknown, "bigger"
 * → "big"): the form itself and its regular inflections undone, those the lexicon has.
 */
export function lemmasOf(form: string): string[] {
  const cached = lemmaCache.get(form);
  if (cached) return cached;
  const { index } = lexicon();
  const word = form.toLowerCase().replace(/['’]s$/, '');
  const candidates = [word];
  const strip = (suffix: string, ...endings: string[]) => {
    if (word.length > suffix.length + 2 && word.endsWith(suffix))
      for (const ending of endings) candidates.push(word.slice(0, -suffix.length) + ending);
  };
  strip('s', '');
  strip('es', '');
  strip('ies', 'y');
  strip('ed', '', 'e');
  strip('ied', 'y');
  strip('ing', '', 'e');
  strip('er', '', 'e');
  strip('est', '', 'e');
  // "running", "bigger", "stopped": a doubled consonant undone.
  const doubled = /^(.*([bdgklmnprt]))\2(?:ing|ed|er|est)$/.exec(word);
  if (doubled) candidates.push(doubled[1]);
  const found = [...new Set(candidates)].filter((candidate) => index.has(candidate));
  if (lemmaCache.size > 50_000) lemmaCache.clear();
  lemmaCache.set(form, found);
  return found;
}

/**
 * Words related to a word, with how closely: synonyms and close relatives 0.75, hypernyms and
 * hyponyms 0.55, two levels apart 0.45. The word itself is not included.
 */
export function relatedWords(form: string): Map<string, number> {
  const { lines, index } = lexicon();
  const related = new Map<string, number>();
  const lemmas = lemmasOf(form);
  for (const lemma of lemmas)
    for (const id of index.get(lemma) ?? []) {
      const line = lines[id];
      const strength = STRENGTH[line.kind];
      // Synonyms are related to each other; a star's hub to each of the others, and back.
      const others = line.kind === '=' || line.words[0] === lemma ? line.words : [line.words[0]];
      for (const other of others)
        if (!lemmas.includes(other) && (related.get(other) ?? 0) < strength) related.set(other, strength);
    }
  return related;
}

/** How closely a page word is related to a question word's relatives ({@link relatedWords}); 0 when not. */
export function relationTo(related: ReadonlyMap<string, number>, form: string): number {
  if (related.size === 0) return 0;
  let best = 0;
  for (const lemma of lemmasOf(form)) best = Math.max(best, related.get(lemma) ?? 0);
  return best;
}
