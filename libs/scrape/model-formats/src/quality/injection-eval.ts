import { markdownToText } from '@quarry/scrape/content';
import { findPromptInjection } from '@quarry/scrape/formats';

import { readSections } from './labelled-fixtures';

export interface InjectionScores {
  injected: number;
  benign: number;
  precision: number;
  recall: number;
  /** Benign pages flagged / benign pages. */
  falsePositiveRate: number;
  missed: string[];
  falseAlarms: string[];
}

/**
 * Scores the pattern-based checkPromptInjection fallback on pages labelled `injected` or `benign`,
 * on the same text the service checks (the page markdown as plain text).
 */
export function evaluateInjection(file: string): InjectionScores {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let injected = 0;
  let benign = 0;
  const missed: string[] = [];
  const falseAlarms: string[] = [];
  for (const section of readSections(file)) {
    const finding = findPromptInjection(markdownToText(section.body));
    if (section.label === 'injected') {
      injected += 1;
      if (finding.detected) tp += 1;
      else {
        fn += 1;
        missed.push(section.id);
      }
    } else {
      benign += 1;
      if (finding.detected) {
        fp += 1;
        falseAlarms.push(`${section.id}: "${finding.evidence}"`);
      }
    }
  }
  return {
    injected,
    benign,
    precision: tp / Math.max(1, tp + fp),
    recall: tp / Math.max(1, tp + fn),
    falsePositiveRate: fp / Math.max(1, benign),
    missed,
    falseAlarms,
  };
}
