import {
  type AgentRunRecord,
  conversationContext,
  EXTRACTION_CREDITS,
  orchestrator,
  type PendingEvent,
  snapshotId,
} from '@quarry/agent/domain';
import { PRICES } from '@quarry/billing';
import { AppError } from '@quarry/contracts';
import { isLlmError } from '@quarry/llm';
import { isDatabaseUnavailable } from '@quarry/platform/database';

import { type AgentRunnerDeps, runPageTasks } from './agent-runner.deps';
import type { EndRunUseCase } from './end-run.usecase';
import { pagesOf } from './run-pages.util';
import { describe, type RunPolicy } from './run-policy.util';

/** The `extract` step: the result is extracted from the pages read, and the run ends with it. */
export class ExtractResultUseCase {
  constructor(
    private readonly deps: AgentRunnerDeps,
    private readonly policy: RunPolicy,
    private readonly ending: EndRunUseCase,
  ) {}

  async execute(run: AgentRunRecord, reasoning?: string): Promise<void> {
    const agent = orchestrator(run.id);
    const pages = await pagesOf(this.deps.documents, run.memory);
    const callId = `${run.id}:extract`;
    await this.deps.runs.record(run.id, [
      ...(reasoning
        ? [{ key: 'extract:reasoning', agent, body: { type: 'reasoning.summary' as const, text: reasoning } }]
        : []),
      {
        key: 'extract:progress',
        agent,
        body: {
          type: 'progress.reported',
          phase: 'finalizing',
          message: `Extracting the result from ${pages.length} page(s).`,
        },
      },
      {
        key: 'extract:call',
        agent,
        body: {
          type: 'tool_call.started',
          toolCallId: callId,
          toolName: 'extract',
          parameters: { pages: pages.map((page) => page.url), schema: run.request.schema ?? null },
        },
      },
    ]);
    let extracted;
    try {
      extracted = await this.deps.extraction.extractFromPages(
        pages,
        run.kind === 'extract'
          ? this.policy.extractJobs.extraction(run)
          : {
              schema: run.request.schema,
              prompt: run.prompt,
              systemPrompt: conversationContext(run.memory.conversation),
            },
        { teamId: run.teamId, jobId: run.id, tasks: runPageTasks(this.deps) },
      );
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error;
      // The extraction's failure is the extract tool call's result, then the run's.
      await this.deps.runs.record(run.id, [
        {
          key: 'extract:result',
          agent,
          body: {
            type: 'tool_call.finished',
            toolCallId: callId,
            toolName: 'extract',
            result: { error: describe(error) },
          },
        },
      ]);
      if (isLlmError(error) && error.kind === 'refused')
        return this.ending.execute(run, 'refused', `The agent declined the task: ${error.message}`);
      if (error instanceof AppError) return this.ending.execute(run, 'failed', error.message);
      this.deps.logger.error({ err: error, runId: run.id }, 'agent extraction failed');
      return this.ending.execute(run, 'failed', `The extraction failed: ${describe(error)}`);
    }
    const resultSnapshot = snapshotId(run.id, 'result');
    const credits = run.creditsSpent + (run.kind === 'extract' ? PRICES.extract : EXTRACTION_CREDITS);
    const events: PendingEvent[] = [
      {
        key: 'extract:result',
        agent,
        body: {
          type: 'tool_call.finished',
          toolCallId: callId,
          toolName: 'extract',
          result: { via: extracted.via, warning: extracted.warning ?? null },
        },
      },
      {
        key: 'extract:artifact',
        agent,
        body: {
          type: 'artifact.updated',
          artifact: { kind: 'json', artifactId: 'result', snapshotId: resultSnapshot, change: 'update' },
        },
      },
    ];
    await this.ending.execute(run, 'succeeded', undefined, {
      data: extracted.value,
      credits,
      events,
      snapshots: [
        { id: resultSnapshot, artifactId: 'result', kind: 'json', content: JSON.stringify(extracted.value) },
      ],
      ...(run.kind === 'extract'
        ? {
            warning: this.policy.extractJobs.warning(run, extracted.warning),
            sources: this.policy.extractJobs.sources(run, extracted.value, pages),
          }
        : { warning: extracted.warning?.replace(/^(json|agent):/, 'agent:') }),
    });
  }
}
