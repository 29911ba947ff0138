import {
  type AgentRunRecord,
  type AgentRunRepository,
  type AgentTaskRecord,
  agentWebhookEvents,
  type PendingEvent,
  subagent,
  type TaskResult,
  traceError,
} from '@quarry/agent/domain';
import { type AgentWorkMessage, isAcceptableHttpUrl } from '@quarry/contracts';
import type { MessageBus } from '@quarry/platform/bus';
import type { AppConfig } from '@quarry/platform/config';
import { isDatabaseUnavailable } from '@quarry/platform/database';
import type { Logger, PlatformMetrics } from '@quarry/platform/observability';
import { extractLinks } from '@quarry/scrape/content';

import type { ScrapeGateway } from './scrape-gateway';

const MAX_LINKS = 200;

/**
 * Runs one sub-agent task: reads a page through the scrape path and records what it found, then
 * wakes the run. A task is claimed with a lease, so a redelivered message never runs it twice at
 * once, and one whose executor died is taken over when the lease expires — at most
 * `WORK_MAX_ATTEMPTS` times: then it is quarantined (failed with the reason) and never handed out
 * again. Whatever the scrape tool throws becomes the task's failed tool call.
 */
export class TaskRunner {
  constructor(
    private readonly deps: {
      runs: AgentRunRepository;
      scrapes: ScrapeGateway;
      bus: MessageBus;
      config: AppConfig;
      metrics: PlatformMetrics;
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
    const claimed = await runs.claimTask(task.id, config.agent.leaseMs, config.agent.maxAttempts);
    if (!claimed) {
      if (task.attempts >= config.agent.maxAttempts && (await this.quarantine(run, task)))
        await this.wake(runId, teamId);
      return;
    }
    const agent = subagent(runId, task.id, task.input.name);
    const startedAt = Date.now();
    await runs.record(runId, startEvents(claimed));
    const read = await this.read(claimed, teamId);
    if (!read) return;
    const { result, credits } = read;
    await runs.finishTask(claimed, {
      state: result.ok ? 'succeeded' : 'failed',
      result,
      credits,
      events: finishEvents(claimed, agent, result, credits, Date.now() - startedAt),
      webhooks: agentWebhookEvents(run.request.webhook, { event: 'action', action: actionOf(result) }),
    });
    await this.wake(runId, teamId);
  }

  /** The page read through the scrape path; undefined when the run stopped waiting for it. */
  private async read(
    task: AgentTaskRecord,
    teamId: string,
  ): Promise<{ result: TaskResult; credits: number } | undefined> {
    const { runs, config } = this.deps;
    const url = task.input.url;
    // Only web pages are read: an index hit of an upload ("ledger.html") or a browser error page is not one.
    if (!isAcceptableHttpUrl(url.trim())) {
      return {
        result: {
          url,
          ok: false,
          error: `not a web page address (http or https): ${url.slice(0, 200)}`,
          links: [],
        },
        credits: 0,
      };
    }
    try {
      const scraped = await this.deps.scrapes.scrape({
        jobId: task.input.scrapeJobId,
        teamId,
        url,
        parentJobId: task.runId,
        timeoutMs: task.input.timeoutMs ?? config.agent.scrapeTimeoutMs,
        options: task.input.scrapeOptions,
        origin: task.input.origin,
        stop: async () => (await runs.find(task.runId))?.state !== 'running',
        heartbeat: () => runs.renewTask(task.id, config.agent.leaseMs),
      });
      if (scraped.status === 'abandoned') return undefined;
      if (scraped.status === 'failed')
        return { result: { url, ok: false, error: scraped.error, links: [] }, credits: 0 };
      const document = scraped.document;
      const metadata = document.metadata;
      const title =
        typeof metadata.title === 'string'
          ? metadata.title
          : Array.isArray(metadata.title)
            ? metadata.title[0]
            : undefined;
      const ok = metadata.statusCode < 400 && !!document.markdown?.trim();
      return {
        result: {
          url,
          finalUrl: metadata.url,
          title,
          statusCode: metadata.statusCode,
          ok,
          error: ok
            ? undefined
            : (metadata.error ??
              (metadata.statusCode >= 400 ? `HTTP ${metadata.statusCode}` : 'the page has no content')),
          // Link discovery reads the raw page (navigation included), as crawls do.
          links: linksOf(document.rawHtml, metadata.url ?? url).slice(0, MAX_LINKS),
        },
        credits: metadata.creditsUsed ?? 0,
      };
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error; // infrastructure: the bus redelivers
      this.deps.logger.warn({ err: error, runId: task.runId, taskId: task.id }, 'agent scrape tool failed');
      return {
        result: { url, ok: false, error: `the scrape tool failed: ${describe(error)}`, links: [] },
        credits: 0,
      };
    }
  }

  /** A task whose every attempt died (or failed) ends failed with that reason; true when this call ended it. */
  private async quarantine(run: AgentRunRecord, task: AgentTaskRecord): Promise<boolean> {
    const result: TaskResult = {
      url: task.input.url,
      ok: false,
      error:
        `quarantined after ${task.attempts} attempts: reading this page failed or ended its orchestrator ` +
        'process every time, so it is not retried',
      links: [],
    };
    const agent = subagent(run.id, task.id, task.input.name);
    const quarantined = await this.deps.runs.quarantineTask(task, this.deps.config.agent.maxAttempts, {
      result,
      events: [...startEvents(task), ...finishEvents(task, agent, result, 0, 0)],
      webhooks: agentWebhookEvents(run.request.webhook, { event: 'action', action: actionOf(result) }),
    });
    if (quarantined) this.deps.metrics.workQuarantined.inc({ kind: run.kind });
    if (quarantined)
      this.deps.logger.warn(
        { runId: run.id, taskId: task.id, attempts: task.attempts },
        'agent task quarantined',
      );
    return quarantined;
  }

  private async wake(runId: string, teamId: string): Promise<void> {
    await this.deps.bus.publish('agentWork', { type: 'advance', runId, teamId } satisfies AgentWorkMessage, {
      key: runId,
    });
  }
}

function startEvents(task: AgentTaskRecord): PendingEvent[] {
  const agent = subagent(task.runId, task.id, task.input.name);
  return [
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
  ];
}

/**
 * The tool call's result, and for a page that could not be read the sub-agent's error (docs/agent.md#trace-and-snapshots:
 * terminal events carry {code, retryable}); the run goes on with the pages that were read.
 */
function finishEvents(
  task: AgentTaskRecord,
  agent: PendingEvent['agent'],
  result: TaskResult,
  credits: number,
  durationMs: number,
): PendingEvent[] {
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
    body: { type: 'agent.finished', outcome: result.ok ? 'succeeded' : 'failed', durationMs, error },
  });
  return events;
}

function actionOf(result: TaskResult) {
  return {
    url: result.url,
    ok: result.ok,
    statusCode: result.statusCode,
    title: result.title,
    error: result.error,
  };
}

function linksOf(html: string | null | undefined, url: string): string[] {
  if (!html) return [];
  try {
    return extractLinks(html, url);
  } catch {
    return [];
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
