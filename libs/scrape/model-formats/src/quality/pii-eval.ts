import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { detectPii, type PiiEntity, type PiiMode, type PiiSpan } from '@quarry/scrape/formats';

export interface LabelledText {
  text: string;
  gold: PiiSpan[];
}

/** Reads a fixture annotated as `[[TYPE|text]]` into plain text and gold spans. */
export function readLabelled(file: string): LabelledText {
  const source = readFileSync(join(__dirname, '../fixtures', file), 'utf8');
  const gold: PiiSpan[] = [];
  let text = '';
  let cursor = 0;
  for (const match of source.matchAll(/\[\[([A-Z]+)\|([^\]]+)\]\]/g)) {
    text += source.slice(cursor, match.index);
    gold.push({
      start: text.length,
      end: text.length + match[2].length,
      type: match[1] as PiiEntity,
      text: match[2],
    });
    text += match[2];
    cursor = (match.index ?? 0) + match[0].length;
  }
  return { text: text + source.slice(cursor), gold };
}

export interface PiiScores {
  perType: Record<string, { tp: number; fp: number; fn: number; precision: number; recall: number }>;
  micro: { precision: number; recall: number; f1: number };
  /** Gold spans with any redaction over them, whatever the predicted type. */
  anyTypeRecall: number;
  falsePositives: PiiSpan[];
  misses: PiiSpan[];
}

const overlaps = (a: PiiSpan, b: PiiSpan) => a.start < b.end && b.start < a.end;

/** Entity-level precision/recall: a prediction counts when it overlaps a gold span of the same type. */
export function scorePii(labelled: LabelledText[], detect: (text: string) => PiiSpan[]): PiiScores {
  const perType: PiiScores['perType'] = {};
  const bump = (type: string, key: 'tp' | 'fp' | 'fn') => {
    perType[type] ??= { tp: 0, fp: 0, fn: 0, precision: 0, recall: 0 };
    perType[type][key] += 1;
  };
  let anyHit = 0;
  let goldTotal = 0;
  const falsePositives: PiiSpan[] = [];
  const misses: PiiSpan[] = [];
  for (const { text, gold } of labelled) {
    const predicted = detect(text);
    goldTotal += gold.length;
    for (const span of gold) {
      if (predicted.some((p) => overlaps(p, span) && p.type === span.type)) bump(span.type, 'tp');
      else {
        bump(span.type, 'fn');
        misses.push(span);
      }
      if (predicted.some((p) => overlaps(p, span))) anyHit += 1;
    }
    for (const p of predicted) {
      if (!gold.some((span) => overlaps(p, span) && p.type === span.type)) {
        bump(p.type, 'fp');
        falsePositives.push(p);
      }
    }
  }
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const scores of Object.values(perType)) {
    scores.precision = scores.tp + scores.fp ? scores.tp / (scores.tp + scores.fp) : 1;
    scores.recall = scores.tp + scores.fn ? scores.tp / (scores.tp + scores.fn) : 1;
    tp += scores.tp;
    fp += scores.fp;
    fn += scores.fn;
  }
  const precision = tp / Math.max(1, tp + fp);
  const recall = tp / Math.max(1, tp + fn);
  return {
    perType,
    micro: { precision, recall, f1: (2 * precision * recall) / Math.max(1e-9, precision + recall) },
    anyTypeRecall: anyHit / Math.max(1, goldTotal),
    falsePositives,
    misses,
  };
}

export const PII_FIXTURES = ['pii-labelled.md', 'pii-labelled-2.md'];
/** Written after the detector was frozen: the honest figure. */
export const PII_HELDOUT = ['pii-heldout.md'];

export function evaluatePii(mode: PiiMode, fixtures: readonly string[] = PII_FIXTURES): PiiScores {
  return scorePii(fixtures.map(readLabelled), (text) => detectPii(text, { mode }));
}
