import { agentWebhookEvents, subagent, traceError, type PendingEvent } from '@quarry/agent/domain';
import type { AgentWorkMessage } from '@quarry/contracts';
import type { MessageBus } from '@quarry/platform/bus';
import { extractLinks } from '@quarry/scrape/content';
import type { AppConfig } from '@quarry/platform/config';
import type { Logger } from '@quarry/platform/observability';
import type { AgentRunRepository, TaskResult } from './agent-run.repository';
import type { ScrapeGateway } from './scrape-gateway';

const MAX_LINKS = 200;

/**
 * Runs one sub-agent task: reads a page through the scrape path and records what it found, then
 * wakes the run. A task is claimed with a lease, so a redelivered message never runs it twice at
 * once, and one whose executor died is taken over when the lease expires.
 */
export class TaskRunner {
  constructor(
    private readonly deps: {
      runs: AgentRunRepository;
      scrapes: ScrapeGateway;
      bus: MessageBus;
      config: AppConfig;
      logger: Logger;
    },
  ) {}

  async run(runId: string, teamId: string, taskIdValue: string): Promise<void> {
    const { runs, config } = this.deps;
    const task = await runs.findTask(taskIdValue);
    if (!task) return;
    if (task.state === 'succeeded' || task.state === 'failed' || task.state === 'stopped') {
      await this.wake(runId, teamId);
      return;
    }
    const run = await runs.find(runId);
    if (!run || run.state !== 'running') return; // the run ends its unfinished tasks itself
    const claimed = await runs.claimTask(task.id, config.agent.leaseMs);
    if (!claimed) return;
    const agent = subagent(runId, task.id, task.input.name);
    const startedAt = Date.now();
    await runs.record(runId, [
      { key: `task:${task.id}:started`, agent, body: { type: 'agent.started' } },
      {
        key: `task:${task.id}:call`,
        agent,
        body: {
          type: 'tool_call.started',
          toolCallId: task.id,
          toolName: 'scrape',
          parameters: { url: task.input.url },
        },
      },
    ]);
    const scraped = await this.deps.scrapes.scrape({
      jobId: task.input.scrapeJobId,
      teamId,
      url: task.input.url,
      parentJobId: runId,
      timeoutMs: task.input.timeoutMs ?? config.agent.scrapeTimeoutMs,
      options: task.input.scrapeOptions,
      origin: task.input.origin,
      stop: async () => (await runs.find(runId))?.state !== 'running',
      heartbeat: () => runs.renewTask(task.id, config.agent.leaseMs),
    });
    if (scraped.status === 'abandoned') return;
    let result: TaskResult;
    let credits = 0;
    if (scraped.status === 'completed') {
      const document = scraped.document;
      const metadata = document.metadata;
      const title =
        typeof metadata.title === 'string'
          ? metadata.title
          : Array.isArray(metadata.title)
            ? metadata.title[0]
            : undefined;
      const ok = metadata.statusCode < 400 && !!document.markdown?.trim();
      credits = metadata.creditsUsed ?? 0;
      result = {
        url: task.input.url,
        finalUrl: metadata.url,
        title,
        statusCode: metadata.statusCode,
        ok,
        error: ok
          ? undefined
          : (metadata.error ??
            (metadata.statusCode >= 400 ? `HTTP ${metadata.statusCode}` : 'the page has no content')),
        // Link discovery reads the raw page (navigation included), as crawls do.
        links: linksOf(document.rawHtml, metadata.url ?? task.input.url).slice(0, MAX_LINKS),
      };
    } else {
      result = { url: task.input.url, ok: false, error: scraped.error, links: [] };
    }
    const events: PendingEvent[] = [
      {
        key: `task:${task.id}:result`,
        agent,
        body: {
          type: 'tool_call.finished',
          toolCallId: task.id,
          toolName: 'scrape',
          result: {
            url: result.url,
            finalUrl: result.finalUrl,
            statusCode: result.statusCode,
            title: result.title,
            ok: result.ok,
            error: result.error ?? null,
            creditsUsed: credits,
          },
        },
      },
    ];
    // A sub-agent whose page could not be read ends failed with the tool's error (spec §6: terminal
    // events carry {code, retryable}); the run goes on with the pages that were read.
    const error = result.ok
      ? null
      : {
          ...traceError('internal', {
            message: `The page could not be read: ${result.error ?? 'unknown error'}`,
          }),
          source: 'tool' as const,
        };
    if (error) events.push({ key: `task:${task.id}:error`, agent, body: { type: 'error.occurred', error } });
    events.push({
      key: `task:${task.id}:finished`,
      agent,
      body: {
        type: 'agent.finished',
        outcome: result.ok ? 'succeeded' : 'failed',
        durationMs: Date.now() - startedAt,
        error,
      },
    });
    const action = {
      url: result.url,
      ok: result.ok,
      statusCode: result.statusCode,
      title: result.title,
      error: result.error,
    };
    await runs.finishTask(claimed, {
      state: result.ok ? 'succeeded' : 'failed',
      result,
      credits,
      events,
      webhooks: agentWebhookEvents(run.request.webhook, { event: 'action', action }),
    });
    await this.wake(runId, teamId);
  }

  private async wake(runId: string, teamId: string): Promise<void> {
    await this.deps.bus.publish('agentWork', { type: 'advance', runId, teamId } satisfies AgentWorkMessage, {
      key: runId,
    });
  }
}

function linksOf(html: string | null | undefined, url: string): string[] {
  if (!html) return [];
  try {
    return extractLinks(html, url);
  } catch {
    return [];
  }
}
