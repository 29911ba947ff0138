import { removeBoilerplate } from '@quarry/scrape/formats';

import { readSections } from './labelled-fixtures';

export interface CleanScores {
  documents: number;
  boilerplateLines: number;
  contentLines: number;
  /** Boilerplate lines removed / boilerplate lines. */
  recall: number;
  /** Removed lines that were boilerplate / removed lines. */
  precision: number;
  /** Content lines kept / content lines. */
  contentKept: number;
  missed: string[];
  wronglyRemoved: string[];
}

/**
 * Scores the offline onlyCleanContent filter on a fixture whose boilerplate lines start with `[B] `
 * (line level, blank lines ignored). The filter only removes whole lines, so a line is kept when it
 * is found, in order, in the output.
 */
export function evaluateClean(
  file: string,
  clean = (markdown: string) => removeBoilerplate(markdown).markdown,
): CleanScores {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let contentLines = 0;
  let contentKept = 0;
  const missed: string[] = [];
  const wronglyRemoved: string[] = [];
  const sections = readSections(file);
  for (const section of sections) {
    const lines = section.body.split('\n').map((line) => ({
      boilerplate: line.startsWith('[B] '),
      text: line.replace(/^\[B\] /, ''),
    }));
    const output = clean(lines.map((line) => line.text).join('\n')).split('\n');
    let cursor = 0;
    for (const line of lines) {
      if (!line.text.trim()) continue;
      const at = output.indexOf(line.text, cursor);
      const kept = at >= 0;
      if (kept) cursor = at + 1;
      if (line.boilerplate) {
        if (kept) {
          fn += 1;
          missed.push(`${section.id}: ${line.text.slice(0, 80)}`);
        } else tp += 1;
      } else {
        contentLines += 1;
        if (kept) contentKept += 1;
        else {
          fp += 1;
          wronglyRemoved.push(`${section.id}: ${line.text.slice(0, 80)}`);
        }
      }
    }
  }
  return {
    documents: sections.length,
    boilerplateLines: tp + fn,
    contentLines,
    recall: tp / Math.max(1, tp + fn),
    precision: tp / Math.max(1, tp + fp),
    contentKept: contentKept / Math.max(1, contentLines),
    missed,
    wronglyRemoved,
  };
}
