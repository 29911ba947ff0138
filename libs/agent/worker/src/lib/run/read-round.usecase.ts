import {
  type AgentRunRecord,
  type Decision,
  orchestrator,
  type PendingEvent,
  scrapeJobId,
  startRound,
  taskId,
} from '@quarry/agent/domain';
import type { AgentWorkMessage } from '@quarry/contracts';

import type { AgentRunnerDeps } from './agent-runner.deps';
import type { RunPolicy } from './run-policy.util';

/** The `read` step: a new round of sub-agent tasks, one per page, announced on `agent.work`. */
export class ReadRoundUseCase {
  constructor(
    private readonly deps: AgentRunnerDeps,
    private readonly policy: RunPolicy,
  ) {}

  async execute(run: AgentRunRecord, decision: Extract<Decision, { kind: 'read' }>): Promise<void> {
    const agent = orchestrator(run.id);
    const roundNumber = run.memory.round + 1;
    const tasks = decision.urls.map((candidate, index) => {
      const id = taskId(run.id, roundNumber, candidate.url);
      return {
        id,
        round: roundNumber,
        input: {
          url: candidate.url,
          name: `reader-${roundNumber}.${index + 1}`,
          scrapeJobId: scrapeJobId(id),
          ...(run.kind === 'extract' ? this.policy.extractJobs.taskOptions(run) : {}),
        },
      };
    });
    const events: PendingEvent[] = [];
    if (decision.reasoning)
      events.push({
        key: `round:${roundNumber}:reasoning`,
        agent,
        body: { type: 'reasoning.summary', text: decision.reasoning },
      });
    events.push({
      key: `round:${roundNumber}:progress`,
      agent,
      body: {
        type: 'progress.reported',
        phase: 'working',
        message: `Round ${roundNumber}: ${tasks.length} sub-agent(s) read ${decision.urls.map((candidate) => candidate.url).join(', ')}.`,
      },
    });
    const applied = await this.deps.runs.update(run.id, {
      whenState: ['running'],
      whenStep: run.step,
      step: run.step + 1,
      memory: startRound(run.memory, decision.urls),
      tasks,
      events,
    });
    if (!applied) return;
    for (const task of tasks) {
      await this.deps.bus.publish(
        'agentWork',
        { type: 'task', runId: run.id, teamId: run.teamId, taskId: task.id } satisfies AgentWorkMessage,
        { key: task.id },
      );
    }
  }
}
