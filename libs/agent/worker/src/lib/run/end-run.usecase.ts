import {
  agentEndEvent,
  type AgentRunRecord,
  agentStatusBody,
  agentWebhookEvents,
  orchestrator,
  type PendingEvent,
  subagent,
  terminate,
  traceError,
} from '@quarry/agent/domain';
import type { AgentRunOutcome } from '@quarry/contracts';

import type { AgentRunnerDeps } from './agent-runner.deps';
import type { RunPolicy } from './run-policy.util';

/** Ends a run: outcome, trace, webhooks, the charge of a succeeded run, and its metrics. */
export class EndRunUseCase {
  constructor(
    private readonly deps: AgentRunnerDeps,
    private readonly policy: RunPolicy,
  ) {}

  /** Ends the run with `outcome` (a run being cancelled ends cancelled); stops unfinished sub-agents with parent_finished. */
  async execute(
    run: AgentRunRecord,
    outcome: AgentRunOutcome,
    message?: string,
    success?: {
      data: unknown;
      credits: number;
      events: PendingEvent[];
      snapshots: { id: string; artifactId: string; kind: string; content: string }[];
      warning?: string;
      sources?: unknown;
    },
  ): Promise<void> {
    const termination = terminate(run.state, outcome, { message, maxCredits: run.maxCredits ?? undefined });
    if (!termination) return;
    const agent = orchestrator(run.id);
    const events: PendingEvent[] = termination.state === 'completed' ? [...(success?.events ?? [])] : [];
    if (
      termination.error &&
      (termination.error.code === 'internal' || termination.error.code === 'credit_limit_reached')
    ) {
      events.push({ key: 'finish:error', agent, body: { type: 'error.occurred', error: termination.error } });
    }
    events.push(
      {
        key: 'finish:agent',
        agent,
        body: {
          type: 'agent.finished',
          outcome:
            termination.outcome === 'succeeded'
              ? 'succeeded'
              : termination.outcome === 'cancelled'
                ? 'cancelled'
                : termination.outcome === 'refused'
                  ? 'refused'
                  : 'failed',
          durationMs: Date.now() - run.createdAt.getTime(),
          error: termination.error,
        },
      },
      {
        key: 'finish:run',
        agent,
        body: { type: 'run.finished', outcome: termination.outcome, error: termination.error },
      },
    );
    const data = termination.state === 'completed' ? success?.data : undefined;
    const credits = termination.state === 'completed' ? (success?.credits ?? run.creditsSpent) : 0;
    const ending =
      run.kind === 'extract'
        ? {
            webhooks: await this.policy.extractJobs.finishWebhooks(run, termination, {
              data: success?.data,
              credits: success?.credits ?? run.creditsSpent,
              warning: success?.warning,
              sources: success?.sources,
            }),
            ...(termination.state === 'completed'
              ? { warning: success?.warning, sources: success?.sources }
              : {}),
          }
        : {
            webhooks: agentWebhookEvents(
              run.request.webhook,
              agentEndEvent(
                termination.outcome,
                agentStatusBody({
                  ...run,
                  effort: run.request.effort,
                  hasSchema: !!run.request.schema,
                  state: termination.state,
                  creditsSpent: credits,
                  errorMessage: termination.error?.message ?? null,
                  data,
                  warning: termination.state === 'completed' ? success?.warning : undefined,
                }),
              ),
            ),
            // The offline fallback's warning, shown by GET /v2/agent/:id with the result.
            ...(termination.state === 'completed' && success?.warning ? { warning: success.warning } : {}),
          };
    const finished = await this.deps.runs.finish(run.id, {
      ...ending,
      whenState: [run.state],
      state: termination.state,
      outcome: termination.outcome,
      error: termination.error,
      data,
      credits,
      apiKeyId: undefined,
      events,
      snapshots: termination.state === 'completed' ? success?.snapshots : undefined,
      stoppedTaskEvents: (stopped, name) => [
        {
          key: `task:${stopped}:finished`,
          agent: subagent(run.id, stopped, name),
          body: {
            type: 'agent.finished',
            outcome: 'cancelled',
            durationMs: 0,
            error: traceError('parent_finished'),
          },
        },
      ],
    });
    if (finished) {
      this.deps.metrics.jobsFinished.inc({ kind: run.kind, outcome: termination.outcome });
      // The run's whole life, from acceptance to its end (its steps may have run on several orchestrators).
      this.deps.metrics.jobDuration.observe(
        { kind: run.kind, engine: 'none' },
        Math.max(0, Date.now() - run.createdAt.getTime()) / 1000,
      );
      if (termination.state === 'completed')
        this.deps.metrics.creditsConsumed.inc({ kind: run.kind }, success?.credits ?? 0);
    }
  }
}
