import {
  absorbRound,
  type AgentRunRecord,
  type AgentTaskRecord,
  orchestrator,
  type PageRecord,
  type PendingEvent,
  type PlannerMemory,
  snapshotId,
} from '@quarry/agent/domain';
import { fillSchema } from '@quarry/scrape/formats';

import { type AgentRunnerDeps, runPageTasks } from './agent-runner.deps';
import type { EndRunUseCase } from './end-run.usecase';
import { pagesOf } from './run-pages.util';
import type { RunPolicy } from './run-policy.util';

/** The end of a round: the sub-agents' pages go into the planner's memory and the `sources` artifact. */
export class AbsorbRoundUseCase {
  constructor(
    private readonly deps: AgentRunnerDeps,
    private readonly policy: RunPolicy,
    private readonly ending: EndRunUseCase,
  ) {}

  async execute(run: AgentRunRecord, tasks: AgentTaskRecord[]): Promise<boolean> {
    const agent = orchestrator(run.id);
    const roundNumber = run.memory.round;
    const results = tasks.map((task) => {
      const result = task.result;
      const page: PageRecord & { links: string[] } = {
        url: task.input.url,
        taskId: task.id,
        jobId: task.input.scrapeJobId,
        round: task.round,
        ok: task.state === 'succeeded' && result?.ok === true,
        credits: task.credits,
        title: result?.title,
        statusCode: result?.statusCode,
        error: task.state === 'stopped' ? 'stopped' : result?.error,
        links: result?.links ?? [],
      };
      return page;
    });
    const creditsSpent = run.creditsSpent + results.reduce((sum, page) => sum + page.credits, 0);
    const strict = this.policy.strict(run);
    const memory: PlannerMemory = absorbRound(run.memory, roundNumber, results, {
      prompt: run.prompt,
      strict,
    });
    memory.satisfied = await this.satisfied(run, memory);
    const sources = memory.pages.map((page) => ({
      url: page.url,
      title: page.title,
      ok: page.ok,
      statusCode: page.statusCode,
      error: page.error,
    }));
    const sourcesSnapshot = snapshotId(run.id, `round:${roundNumber}:sources`);
    const mapCall = `${run.id}:map:${roundNumber}`;
    const events: PendingEvent[] = [];
    if (!strict) {
      events.push(
        {
          key: `round:${roundNumber}:map:call`,
          agent,
          body: {
            type: 'tool_call.started',
            toolCallId: mapCall,
            toolName: 'map',
            parameters: { pages: results.map((page) => page.url) },
          },
        },
        {
          key: `round:${roundNumber}:map:result`,
          agent,
          body: {
            type: 'tool_call.finished',
            toolCallId: mapCall,
            toolName: 'map',
            result: {
              candidates: memory.candidates.slice(0, 10).map((candidate) => candidate.url),
              total: memory.candidates.length,
            },
          },
        },
      );
    }
    events.push({
      key: `round:${roundNumber}:artifact`,
      agent,
      body: {
        type: 'artifact.updated',
        artifact: {
          kind: 'json',
          artifactId: 'sources',
          snapshotId: sourcesSnapshot,
          change: roundNumber === 1 ? 'init' : 'append',
          itemCount: sources.length,
        },
      },
    });
    const applied = await this.deps.runs.update(run.id, {
      whenState: ['running'],
      whenStep: run.step,
      step: run.step + 1,
      memory,
      creditsSpent,
      events,
      snapshots: [
        { id: sourcesSnapshot, artifactId: 'sources', kind: 'json', content: JSON.stringify(sources) },
      ],
    });
    if (!applied) return true;
    if (run.maxCredits !== null && creditsSpent > run.maxCredits) {
      const latest = await this.deps.runs.find(run.id);
      if (latest) await this.ending.execute(latest, 'credit_limit_reached');
      return false;
    }
    return true;
  }

  /** Whether the pages read answer the task: every schema field found in their structured data, or a passage that matches the prompt well. */
  private async satisfied(run: AgentRunRecord, memory: PlannerMemory): Promise<boolean> {
    const documents = await pagesOf(this.deps.documents, memory);
    if (documents.length === 0) return false;
    const schema = run.request.schema;
    const read = runPageTasks(this.deps);
    if (schema && schema['properties']) {
      const wanted = Object.keys(schema['properties'] as object);
      const found = new Set<string>();
      for (const page of documents) {
        const filled = fillSchema(schema, await read('readStructuredData', page.html ?? ''));
        for (const key of Object.keys(filled.value)) found.add(key);
      }
      return wanted.every((key) => found.has(key));
    }
    for (const page of documents)
      if ((await read('bestPassageScore', page.markdown, run.prompt)) >= 2) return true;
    return false;
  }
}
