import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  absorbRound,
  agentEndEvent,
  agentStatusBody,
  agentWebhookEvents,
  addIndexHits,
  conversationContext,
  EXTRACTION_CREDITS,
  isTerminalState,
  limitsFor,
  orchestrator,
  parsePlanningAnswer,
  planNext,
  planningPrompt,
  PLANNING_SCHEMA,
  PLANNING_SYSTEM_PROMPT,
  scrapeJobId,
  snapshotId,
  startRound,
  subagent,
  taskId,
  terminate,
  traceError,
  type AgentLimits,
  type Decision,
  type PageRecord,
  type PendingEvent,
  type PlannerMemory,
} from '@quarry/agent/domain';
import { PRICES } from '@quarry/billing';
import {
  AppError,
  urlKey,
  type AgentRunOutcome,
  type AgentWorkMessage,
  type ScrapeDocument,
} from '@quarry/contracts';
import type { DocumentRepository } from '@quarry/jobs';
import { isLlmError, type LlmProvider } from '@quarry/llm';
import type { MessageBus } from '@quarry/platform/bus';
import type { AppConfig } from '@quarry/platform/config';
import { isDatabaseUnavailable } from '@quarry/platform/database';
import type { Logger, PlatformMetrics } from '@quarry/platform/observability';
import {
  fillSchema,
  rankPassages,
  readStructuredData,
  type ExtractionService,
  type PageInput,
} from '@quarry/scrape/extraction';
import type { AgentRunRecord, AgentRunRepository, AgentTaskRecord } from './agent-run.repository';
import type { SearchProvider } from '@quarry/crawl';
import type { ExtractSteps } from './extract-steps';
import { searchWeb, WEB_SEARCH_RESULTS } from './web-search';
import type { IndexSearch } from './index-search';

export interface AgentRunnerDeps {
  runs: AgentRunRepository;
  documents: DocumentRepository;
  extraction: ExtractionService;
  llm: LlmProvider;
  index: IndexSearch;
  bus: MessageBus;
  config: AppConfig;
  metrics: PlatformMetrics;
  logger: Logger;
  /** Extract jobs (kind `extract`) run on this machinery with these steps. */
  extractJobs?: ExtractSteps;
  /** The web search provider (SEARCH_PROVIDER_URL); runs also search the web when it is configured. */
  webSearch?: SearchProvider;
}

/** Steps one message may take before it yields (a run never monopolises a consumer). */
const MAX_STEPS_PER_MESSAGE = 40;

const DETERMINISTIC_STRATEGY =
  'No language model is configured (LLM_BASE_URL), so this run follows the deterministic strategy: search this team’s index of scraped pages ' +
  '(and the web search provider, when one is configured) for the prompt’s terms, read the given URLs and the best index hits with sub-agents, follow the most relevant same-site links while the task ' +
  'is not answered, then extract the result from the pages’ structured data (schema field matching) or their best-matching passage.';
const MODEL_STRATEGY = (model: string) =>
  `The language model ${model} plans this run: it searches this team’s index (and the web, when a search provider is configured), reads pages with sub-agents, chooses which links to follow, and extracts the result.`;

/**
 * Takes runs forward one recorded step at a time. Each step is decided from the run's recorded
 * state and written (state, planner memory, trace events, snapshots, new sub-agent tasks) in one
 * transaction guarded by the step number, so a process killed at any point leaves the run at its
 * last recorded step and any orchestrator continues it from there.
 */
export class AgentRunner {
  readonly owner = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;

  constructor(private readonly deps: AgentRunnerDeps) {}

  async advance(runId: string): Promise<void> {
    const { runs, config } = this.deps;
    const leased = await runs.acquireLease(runId, this.owner, config.agent.leaseMs);
    if (!leased) return;
    const heartbeat = setInterval(
      () => void runs.renewLease(runId, this.owner, config.agent.leaseMs).catch(() => undefined),
      Math.max(500, config.agent.leaseMs / 3),
    );
    try {
      for (let index = 0; index < MAX_STEPS_PER_MESSAGE; index += 1) {
        if (!(await this.step(runId))) return;
      }
      await this.publishAdvance(leased.id, leased.teamId);
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error; // infrastructure: the bus redelivers
      this.deps.logger.error({ err: error, runId }, 'agent run step failed');
      const run = await runs.find(runId);
      if (run && !isTerminalState(run.state)) {
        await this.end(
          run,
          'failed',
          `The agent run failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    } finally {
      clearInterval(heartbeat);
      await runs.releaseLease(runId, this.owner).catch(() => undefined);
    }
  }

  /** Takes one step; false when the run waits (sub-agents working) or has finished. */
  private async step(runId: string): Promise<boolean> {
    const run = await this.deps.runs.find(runId);
    if (!run || isTerminalState(run.state)) return false;
    if (run.state === 'cancelling') {
      await this.end(run, 'cancelled');
      return false;
    }
    if (run.state === 'queued') return run.kind === 'extract' ? this.extractJobs.start(run) : this.start(run);
    const memory = run.memory;
    if (memory.round > memory.absorbedRound) {
      const tasks = await this.deps.runs.tasksOfRound(run.id, memory.round);
      if (tasks.some((task) => task.state === 'pending' || task.state === 'running')) return false;
      return this.absorb(run, tasks);
    }
    const decision = await this.decide(run);
    switch (decision.kind) {
      case 'search_index':
        return this.search(run, decision.query);
      case 'read':
        await this.read(run, decision);
        return false;
      case 'extract':
        await this.extract(run, decision.reasoning);
        return false;
      case 'finish':
        await this.end(
          run,
          decision.outcome,
          run.kind === 'extract' ? this.extractJobs.finishMessage(run, decision) : decision.message,
        );
        return false;
    }
  }

  private limits(run: AgentRunRecord): AgentLimits {
    if (run.kind === 'extract') return this.extractJobs.limits(run);
    return limitsFor(run.request.effort, this.deps.config.agent.maxPages);
  }

  /** Constrained to the given pages: no index search, no link following. */
  private strict(run: AgentRunRecord): boolean {
    if (run.kind === 'extract') return this.extractJobs.strict(run);
    return run.request.strictConstrainToURLs === true;
  }

  private get extractJobs(): ExtractSteps {
    if (!this.deps.extractJobs) throw new Error('extract jobs are not wired into this orchestrator');
    return this.deps.extractJobs;
  }

  private async start(run: AgentRunRecord): Promise<boolean> {
    const agent = orchestrator(run.id);
    const strategy =
      run.memory.strategy === 'model' && this.deps.llm.available
        ? MODEL_STRATEGY(this.deps.llm.model)
        : DETERMINISTIC_STRATEGY;
    const urls = run.request.urls?.length ?? 0;
    const events: PendingEvent[] = [
      { key: 'start:agent', agent, body: { type: 'agent.started' } },
      { key: 'start:strategy', agent, body: { type: 'reasoning.summary', text: strategy } },
      {
        key: 'start:progress',
        agent,
        body: {
          type: 'progress.reported',
          phase: 'planning',
          message: `${urls} URL(s) given${run.request.strictConstrainToURLs ? ', constrained to them' : ''}${run.maxCredits ? `; credit cap ${run.maxCredits}` : ''}.`,
        },
      },
    ];
    await this.deps.runs.update(run.id, {
      whenState: ['queued'],
      state: 'running',
      step: run.step + 1,
      events,
      webhooks: agentWebhookEvents(run.request.webhook, { event: 'started' }),
    });
    return true;
  }

  private async decide(run: AgentRunRecord): Promise<Decision> {
    const memory = run.memory;
    const input = {
      memory,
      prompt: run.prompt,
      strict: this.strict(run),
      limits: this.limits(run),
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

  private async search(run: AgentRunRecord, query: string): Promise<boolean> {
    const agent = orchestrator(run.id);
    const callId = `${run.id}:search`;
    const hits = await this.deps.index.search(run.teamId, query, 10);
    let memory = addIndexHits(run.memory, hits);
    const events: PendingEvent[] = [
      {
        key: 'search:call',
        agent,
        body: {
          type: 'tool_call.started',
          toolCallId: callId,
          toolName: 'search_index',
          parameters: { query },
        },
      },
      {
        key: 'search:result',
        agent,
        body: {
          type: 'tool_call.finished',
          toolCallId: callId,
          toolName: 'search_index',
          result: { hits: hits.map((hit) => ({ url: hit.url, title: hit.title, score: round(hit.score) })) },
        },
      },
    ];
    // The web is searched to discover sources: only when the caller named none (no URLs given, no
    // earlier turn's pages). Web results follow the index hits (pages the team already has come
    // first); a failing provider is recorded and the run goes on with what it has.
    const provider = run.memory.candidates.some(
      (candidate) => candidate.reason === 'given' || candidate.reason === 'thread',
    )
      ? undefined
      : this.deps.webSearch;
    if (provider) {
      const webCallId = `${run.id}:web_search`;
      let result: unknown;
      try {
        const web = await searchWeb(provider, query, this.deps.config.search.timeoutMs);
        memory = addIndexHits(
          memory,
          web.map((item, index) => ({ url: item.url, score: 1 - index / (2 * WEB_SEARCH_RESULTS) })),
          'web',
        );
        result = { results: web.map((item) => ({ url: item.url, title: item.title })) };
      } catch (error) {
        this.deps.logger.warn({ err: error, runId: run.id }, 'agent web search failed');
        result = {
          error: `The web search provider failed (${describe(error)}); the run continues without it.`,
        };
      }
      events.push(
        {
          key: 'search:web:call',
          agent,
          body: {
            type: 'tool_call.started',
            toolCallId: webCallId,
            toolName: 'web_search',
            parameters: { query },
          },
        },
        {
          key: 'search:web:result',
          agent,
          body: { type: 'tool_call.finished', toolCallId: webCallId, toolName: 'web_search', result },
        },
      );
    }
    await this.deps.runs.update(run.id, {
      whenState: ['running'],
      whenStep: run.step,
      step: run.step + 1,
      memory,
      events,
    });
    return true;
  }

  private async read(run: AgentRunRecord, decision: Extract<Decision, { kind: 'read' }>): Promise<void> {
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
          ...(run.kind === 'extract' ? this.extractJobs.taskOptions(run) : {}),
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

  private async absorb(run: AgentRunRecord, tasks: AgentTaskRecord[]): Promise<boolean> {
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
    const strict = this.strict(run);
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
      if (latest) await this.end(latest, 'credit_limit_reached');
      return false;
    }
    return true;
  }

  /** Whether the pages read answer the task: every schema field found in their structured data, or a passage that matches the prompt well. */
  private async satisfied(run: AgentRunRecord, memory: PlannerMemory): Promise<boolean> {
    const documents = await this.pagesOf(memory);
    if (documents.length === 0) return false;
    const schema = run.request.schema;
    if (schema && schema['properties']) {
      const wanted = Object.keys(schema['properties'] as object);
      const found = new Set<string>();
      for (const page of documents) {
        const filled = fillSchema(schema, readStructuredData(page.html ?? ''));
        for (const key of Object.keys(filled.value)) found.add(key);
      }
      return wanted.every((key) => found.has(key));
    }
    return documents.some((page) => (rankPassages(page.markdown, run.prompt)[0]?.score ?? 0) >= 2);
  }

  private async pagesOf(memory: PlannerMemory): Promise<PageInput[]> {
    const pages: PageInput[] = [];
    for (const page of memory.pages.filter((candidate) => candidate.ok)) {
      const stored = await this.deps.documents.findByJob(page.jobId);
      if (stored) pages.push(toPageInput(page.url, stored.document));
    }
    return pages;
  }

  private async extract(run: AgentRunRecord, reasoning?: string): Promise<void> {
    const agent = orchestrator(run.id);
    const pages = await this.pagesOf(run.memory);
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
          ? this.extractJobs.extraction(run)
          : {
              schema: run.request.schema,
              prompt: run.prompt,
              systemPrompt: conversationContext(run.memory.conversation),
            },
        { teamId: run.teamId, jobId: run.id },
      );
    } catch (error) {
      if (isLlmError(error) && error.kind === 'refused')
        return this.end(run, 'refused', `The agent declined the task: ${error.message}`);
      if (error instanceof AppError) return this.end(run, 'failed', error.message);
      throw error;
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
    await this.end(run, 'succeeded', undefined, {
      data: extracted.value,
      credits,
      events,
      snapshots: [
        { id: resultSnapshot, artifactId: 'result', kind: 'json', content: JSON.stringify(extracted.value) },
      ],
      ...(run.kind === 'extract'
        ? {
            warning: this.extractJobs.warning(run, extracted.warning),
            sources: this.extractJobs.sources(run, extracted.value, pages),
          }
        : {}),
    });
  }

  /** Ends the run with `outcome` (a run being cancelled ends cancelled); stops unfinished sub-agents with parent_finished. */
  private async end(
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
            webhooks: await this.extractJobs.finishWebhooks(run, termination, {
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
                }),
              ),
            ),
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

  private async publishAdvance(runId: string, teamId: string): Promise<void> {
    await this.deps.bus.publish('agentWork', { type: 'advance', runId, teamId } satisfies AgentWorkMessage, {
      key: runId,
    });
  }
}

export function toPageInput(url: string, document: ScrapeDocument): PageInput {
  const title = document.metadata.title;
  return {
    url: document.metadata.url ?? url,
    markdown: document.markdown ?? '',
    html: typeof document.rawHtml === 'string' ? document.rawHtml : undefined,
    title: typeof title === 'string' ? title : Array.isArray(title) ? title[0] : undefined,
  };
}

function round(value: number): number {
  return Math.round(value * 1_000) / 1_000;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
