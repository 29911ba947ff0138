import { type AgentLimits, type AgentRunRecord, limitsFor } from '@quarry/agent/domain';
import type { ExtractSteps } from '@quarry/agent/extract';

import type { AgentRunnerDeps } from './agent-runner.deps';

/** What differs between an agent run and an extract job when the runner plans a step. */
export class RunPolicy {
  constructor(private readonly deps: AgentRunnerDeps) {}

  limits(run: AgentRunRecord): AgentLimits {
    if (run.kind === 'extract') return this.extractJobs.limits(run);
    return limitsFor(run.request.effort, this.deps.config.agent.maxPages);
  }

  /** Constrained to the given pages: no index search, no link following. */
  strict(run: AgentRunRecord): boolean {
    if (run.kind === 'extract') return this.extractJobs.strict(run);
    return run.request.strictConstrainToURLs === true;
  }

  get extractJobs(): ExtractSteps {
    if (!this.deps.extractJobs) throw new Error('extract jobs are not wired into this orchestrator');
    return this.deps.extractJobs;
  }
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function round(value: number): number {
  return Math.round(value * 1_000) / 1_000;
}
