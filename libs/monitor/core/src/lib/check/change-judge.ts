import { diffChars } from 'diff';
import type { Logger } from 'pino';

import type { MonitorPageJudgment, MonitorPageStatus } from '@quarry/contracts';
import type { LlmProvider } from '@quarry/llm';

import { changedLines, stableJson } from './page-diff.util';

export interface JudgeInput {
  teamId: string;
  checkId: string;
  url: string;
  status: MonitorPageStatus;
  goal: string | null;
  /** Git-style diff of a changed page. */
  diffText?: string;
  /** Per-field diff of an extraction. */
  fields?: Record<string, { previous: unknown; current: unknown }>;
  /** Text of a new page (its markdown). */
  content?: string;
}

export interface JudgeVerdict {
  judgment: MonitorPageJudgment;
  /** True when the deterministic judge answered (no model configured, or the model failed). */
  degraded: boolean;
  degradedReason?: string;
}

export const DETERMINISTIC_JUDGE_LABEL = 'Deterministic judge (no language model)';

const STOPWORDS = new Set(
  'the and for with that this from into when what which who whom whose where will would should could about above after again against all any are because been before being below between both but can did does doing down during each few further had has have having her here hers him his how its itself just more most not now off once only other our ours out over own same she some such than their theirs them then there these they those through too under until very was were while why you your yours notify tell alert watch track monitor changes change page pages site website any new'.split(
    ' ',
  ),
);
const MIN_CHANGED_CHARS = 20;
const MAX_CHANGES = 5;

const JUDGMENT_SCHEMA = {
  type: 'object',
  properties: {
    meaningful: { type: 'boolean' },
    confidence: { type: 'string', enum: ['high', 'medium', 'low'] },
    reason: { type: 'string' },
    meaningfulChanges: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          type: { type: 'string', enum: ['added', 'removed', 'changed'] },
          before: { type: ['string', 'null'] },
          after: { type: ['string', 'null'] },
          reason: { type: 'string' },
        },
        required: ['type', 'before', 'after', 'reason'],
      },
    },
  },
  required: ['meaningful', 'confidence', 'reason', 'meaningfulChanges'],
};

/**
 * Decides whether a page's change matters for the monitor's `goal`. With a language model
 * configured it asks the model (structured output); without one — or when the model fails — a
 * deterministic judge answers: a change is meaningful when its added/removed text mentions one of
 * the goal's terms (without a goal: when at least 20 non-space characters changed). Its verdicts
 * say so in `reason` and have `low` confidence.
 */
export class ChangeJudge {
  constructor(
    private readonly llm: LlmProvider,
    private readonly logger: Logger,
  ) {}

  get usesModel(): boolean {
    return this.llm.available;
  }

  async judge(input: JudgeInput): Promise<JudgeVerdict> {
    if (!this.llm.available)
      return {
        judgment: deterministicJudgment(input),
        degraded: true,
        degradedReason: 'no language model configured',
      };
    try {
      const result = await this.llm.complete({
        messages: [
          {
            role: 'system',
            content:
              "You review changes a website monitor detected. Decide whether the change is meaningful for the user's goal (ignore timestamps, counters, ads, layout and boilerplate). Answer only with the JSON object requested.",
          },
          { role: 'user', content: this.prompt(input) },
        ],
        responseSchema: { name: 'monitor_judgment', schema: JUDGMENT_SCHEMA },
        temperature: 0,
        usage: { teamId: input.teamId, jobId: input.checkId, purpose: 'monitor.judge' },
      });
      return { judgment: normalise(result.json), degraded: false };
    } catch (error) {
      const reason = `the language model could not be used (${error instanceof Error ? error.message : String(error)})`;
      this.logger.warn({ err: error, url: input.url }, 'monitor judge fell back to the deterministic judge');
      return { judgment: deterministicJudgment(input, reason), degraded: true, degradedReason: reason };
    }
  }

  private prompt(input: JudgeInput): string {
    const budget = Math.max(2_000, this.llm.maxInputChars - 2_000);
    const change = input.diffText ?? (input.fields ? stableJson(input.fields) : (input.content ?? ''));
    return [
      `Goal: ${input.goal ?? '(none given: judge whether the change is substantive content rather than noise)'}`,
      `URL: ${input.url}`,
      `Page status: ${input.status}`,
      input.status === 'new' ? 'Content of the new page:' : 'Change:',
      change.length > budget ? `${change.slice(0, budget)}\n[cut]` : change,
    ].join('\n');
  }
}

/** The offline judge (see ChangeJudge). */
export function deterministicJudgment(
  input: JudgeInput,
  cause = 'no language model configured',
): MonitorPageJudgment {
  const terms = goalTerms(input.goal);
  const { added, removed } = changeText(input);
  if (input.status === 'removed') {
    return {
      meaningful: true,
      confidence: 'low',
      reason: `${DETERMINISTIC_JUDGE_LABEL}, ${cause}: the page is gone.`,
      meaningfulChanges: [
        { type: 'removed', before: input.url, after: null, reason: 'the page no longer exists' },
      ],
    };
  }
  const mentions = (line: string) => terms.filter((term) => new RegExp(`\\b${escape(term)}`, 'i').test(line));
  const changes: MonitorPageJudgment['meaningfulChanges'] = [];
  const hits = new Set<string>();
  const consider = (type: 'added' | 'removed', line: string) => {
    const found = terms.length ? mentions(line) : [];
    found.forEach((term) => hits.add(term));
    if ((terms.length === 0 || found.length) && changes.length < MAX_CHANGES && line.trim()) {
      changes.push({
        type,
        before: type === 'removed' ? line.trim() : null,
        after: type === 'added' ? line.trim() : null,
        reason: found.length ? `mentions ${found.map((term) => `"${term}"`).join(', ')}` : 'changed text',
      });
    }
  };
  added.forEach((line) => consider('added', line));
  removed.forEach((line) => consider('removed', line));
  if (terms.length > 0) {
    const meaningful = hits.size > 0;
    return {
      meaningful,
      confidence: 'low',
      reason: meaningful
        ? `${DETERMINISTIC_JUDGE_LABEL}, ${cause}: the change mentions ${[...hits].map((term) => `"${term}"`).join(', ')} from the goal.`
        : `${DETERMINISTIC_JUDGE_LABEL}, ${cause}: the change mentions none of the goal's terms (${terms.join(', ')}).`,
      meaningfulChanges: meaningful ? changes : [],
    };
  }
  const changedChars = changedCharacters(removed.join('\n'), added.join('\n'));
  const meaningful = changedChars >= MIN_CHANGED_CHARS;
  return {
    meaningful,
    confidence: 'low',
    reason: `${DETERMINISTIC_JUDGE_LABEL}, ${cause}: ${changedChars} non-space characters changed (meaningful from ${MIN_CHANGED_CHARS}).`,
    meaningfulChanges: meaningful ? changes : [],
  };
}

/** Non-space characters inserted or deleted between two texts (character diff; line lengths for very long texts). */
function changedCharacters(before: string, after: string): number {
  const visible = (text: string) => text.replace(/\s+/g, '').length;
  if (before.length + after.length > 40_000) return visible(before) + visible(after);
  return diffChars(before, after)
    .filter((part) => part.added || part.removed)
    .reduce((sum, part) => sum + visible(part.value), 0);
}

function changeText(input: JudgeInput): { added: string[]; removed: string[] } {
  if (input.diffText) return changedLines(input.diffText);
  if (input.fields) {
    const added: string[] = [];
    const removed: string[] = [];
    for (const [field, value] of Object.entries(input.fields)) {
      if (stableJson(value.previous) === stableJson(value.current)) continue;
      if (value.previous !== null) removed.push(`${field}: ${stableJson(value.previous)}`);
      if (value.current !== null) added.push(`${field}: ${stableJson(value.current)}`);
    }
    return { added, removed };
  }
  return { added: (input.content ?? '').split('\n').filter((line) => line.trim()), removed: [] };
}

/** Content words of the goal (lower case, ≥3 letters, stopwords and duplicates dropped). */
export function goalTerms(goal: string | null): string[] {
  if (!goal) return [];
  const words =
    goal.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}$€£%.-]*[\p{L}\p{N}$€£%]|[\p{L}\p{N}$€£]/gu) ?? [];
  return [
    ...new Set(
      words
        .map((word) => word.replace(/(ies)$/, 'y').replace(/([^s])s$/, '$1'))
        .filter((word) => word.length >= 3 && !STOPWORDS.has(word)),
    ),
  ];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function normalise(value: unknown): MonitorPageJudgment {
  const record = (value ?? {}) as Partial<MonitorPageJudgment>;
  const confidence =
    record.confidence === 'high' || record.confidence === 'medium' ? record.confidence : 'low';
  return {
    meaningful: record.meaningful === true,
    confidence,
    reason: typeof record.reason === 'string' ? record.reason : '',
    meaningfulChanges: Array.isArray(record.meaningfulChanges)
      ? record.meaningfulChanges.slice(0, 20).map((change) => ({
          type: change.type === 'added' || change.type === 'removed' ? change.type : 'changed',
          before: typeof change.before === 'string' ? change.before : null,
          after: typeof change.after === 'string' ? change.after : null,
          reason: typeof change.reason === 'string' ? change.reason : '',
        }))
      : [],
  };
}
