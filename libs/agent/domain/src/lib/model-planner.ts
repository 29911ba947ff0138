import type { Candidate, Decision, PlannerMemory } from './planner';
import { conversationContext } from './thread';

/** The schema a language model answers a planning step with. */
export const PLANNING_SCHEMA = {
  type: 'object',
  properties: {
    action: { type: 'string', enum: ['read', 'finish'] },
    urls: { type: 'array', items: { type: 'string' } },
    reasoning: { type: 'string' },
  },
  required: ['action', 'reasoning'],
} as const;

export const PLANNING_SYSTEM_PROMPT =
  'You plan the next step of a web research agent. Choose "read" with up to the allowed number of URLs taken from the candidate list ' +
  'when more pages are needed to complete the task, or "finish" when the pages already read are enough (or nothing useful is left). ' +
  'Explain your choice in one or two sentences in "reasoning".';

export function planningPrompt(input: {
  prompt: string;
  schema?: unknown;
  memory: PlannerMemory;
  candidates: readonly Candidate[];
  maxUrls: number;
}): string {
  const read =
    input.memory.pages
      .map((page) => `- ${page.url}${page.title ? ` — ${page.title}` : ''}${page.ok ? '' : ' (failed)'}`)
      .join('\n') || '(none yet)';
  const candidates =
    input.candidates
      .slice(0, 40)
      .map((candidate) => `- ${candidate.url} (${candidate.reason})`)
      .join('\n') || '(none)';
  return [
    conversationContext(input.memory.conversation) ?? '',
    `TASK: ${input.prompt}`,
    input.schema ? `OUTPUT SCHEMA: ${JSON.stringify(input.schema).slice(0, 4_000)}` : '',
    `PAGES ALREADY READ:\n${read}`,
    `CANDIDATE URLS (read at most ${input.maxUrls}):\n${candidates}`,
  ]
    .filter(Boolean)
    .join('\n\n');
}

/**
 * Turns a model's planning answer into a decision. URLs must come from the candidate list (a model
 * cannot send the agent anywhere else); "read" with no usable URL means there is nothing left to read.
 */
export function parsePlanningAnswer(
  answer: unknown,
  candidates: readonly Candidate[],
  maxUrls: number,
): Decision {
  const value = (answer ?? {}) as { action?: unknown; urls?: unknown; reasoning?: unknown };
  const reasoning = typeof value.reasoning === 'string' ? value.reasoning.slice(0, 2_000) : undefined;
  if (value.action === 'read' && Array.isArray(value.urls)) {
    const byUrl = new Map(candidates.map((candidate) => [candidate.url, candidate]));
    const chosen = [...new Set(value.urls.filter((url): url is string => typeof url === 'string'))]
      .map((url) => byUrl.get(url))
      .filter((candidate): candidate is Candidate => !!candidate)
      .slice(0, maxUrls);
    if (chosen.length > 0) return { kind: 'read', urls: chosen, reasoning };
  }
  return { kind: 'extract', reasoning };
}
