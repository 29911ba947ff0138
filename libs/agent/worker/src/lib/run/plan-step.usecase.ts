import {
  type AgentRunRecord,
  type Decision,
  orchestrator,
  parsePlanningAnswer,
  planNext,
  PLANNING_SCHEMA,
  PLANNING_SYSTEM_PROMPT,
  planningPrompt,
} from '@quarry/agent/domain';
import { urlKey } from '@quarry/contracts';

import type { AgentRunnerDeps } from './agent-runner.deps';
import { describe, type RunPolicy } from './run-policy.util';

/**
 * The next step of a run: the deterministic plan, or — after the first round, when a model plans the
 * run — the model's choice of pages to read (falling back to the deterministic plan when it fails).
 */
export class PlanStepUseCase {
  constructor(
    private readonly deps: AgentRunnerDeps,
    private readonly policy: RunPolicy,
  ) {}

  async execute(run: AgentRunRecord): Promise<Decision> {
    const memory = run.memory;
    const input = {
      memory,
      prompt: run.prompt,
      strict: this.policy.strict(run),
      limits: this.policy.limits(run),
      creditsSpent: run.creditsSpent,
      maxCredits: run.maxCredits ?? undefined,
      satisfied: memory.satisfied === true,
    };
    const deterministic = planNext(input);
    // The model chooses what to read after the first round; searching, credit and limit checks stay deterministic.
    if (
      memory.strategy !== 'model' ||
      !this.deps.llm.available ||
      memory.absorbedRound === 0 ||
      deterministic.kind !== 'read'
    )
      return deterministic;
    const candidates = memory.candidates.filter((candidate) => !memory.tried.includes(urlKey(candidate.url)));
    try {
      const result = await this.deps.llm.complete({
        messages: [
          { role: 'system', content: PLANNING_SYSTEM_PROMPT },
          {
            role: 'user',
            content: planningPrompt({
              prompt: run.prompt,
              schema: run.request.schema,
              memory,
              candidates,
              maxUrls: deterministic.urls.length,
            }),
          },
        ],
        responseSchema: { name: 'agent_plan', schema: PLANNING_SCHEMA as unknown as Record<string, unknown> },
        usage: { teamId: run.teamId, jobId: run.id, purpose: 'agent.plan' },
      });
      const decided = parsePlanningAnswer(result.json, candidates, deterministic.urls.length);
      if (decided.kind === 'read') return decided;
      const after = planNext({ ...input, satisfied: true, memory: { ...memory, candidates: [] } });
      return after.kind === 'extract' && 'reasoning' in decided
        ? { kind: 'extract', reasoning: decided.reasoning }
        : after;
    } catch (error) {
      await this.deps.runs.record(run.id, [
        {
          key: `step:${run.step}:plan-fallback`,
          agent: orchestrator(run.id),
          body: {
            type: 'progress.reported',
            phase: 'working',
            message: `The language model could not plan this step (${describe(error)}); the deterministic strategy decides instead.`,
          },
        },
      ]);
      return deterministic;
    }
  }
}
