import {
  type AgentLimits,
  type AgentRunRecord,
  type AgentRunRepository,
  type Decision,
  EXTRACT_STRATEGY,
  extractLimits,
  extractStatusBody,
  extractTask,
  extractWebhookEvents,
  findSources,
  initialMemory,
  nothingToReadMessage,
  orchestrator,
  type PendingEvent,
  type PlannerMemory,
  searchWeb,
  siteGlobBase,
  type TaskInput,
  type Termination,
  unreadableMessage,
  type WebhookEventRow,
} from '@quarry/agent/domain';
import { type ExtractRequest, mapRequestSchema, urlKey } from '@quarry/contracts';
import type { JsonSchema } from '@quarry/llm';
import type { AppConfig } from '@quarry/platform/config';
import type { Logger } from '@quarry/platform/observability';
import type { PageInput } from '@quarry/scrape/formats';
import type { MapService, SearchProvider } from '@quarry/search';

export interface ExtractStepsDeps {
  runs: AgentRunRepository;
  map: MapService;
  /** The configured web search provider (SEARCH_PROVIDER_URL), if any. */
  search?: SearchProvider;
  config: AppConfig;
  logger: Logger;
}

/**
 * What an extract job (docs/extract.md) does differently from an agent run, for the AgentRunner: it
 * resolves its pages when it starts (site globs through map, web search), reads them in one round
 * with the caller's scrape options, extracts with the caller's system prompt, and reports through
 * `extract.*` webhooks and the extract status body.
 */
export class ExtractSteps {
  constructor(private readonly deps: ExtractStepsDeps) {}

  request(run: AgentRunRecord): ExtractRequest {
    if (!run.extract) throw new Error(`run ${run.id} is not an extract job`);
    return run.extract;
  }

  limits(run: AgentRunRecord): AgentLimits {
    return extractLimits(this.deps.config.agent.maxPages, this.request(run).limit);
  }

  /** With URLs the job reads those (and what they expand to); without, it searches the team's index first. */
  strict(run: AgentRunRecord): boolean {
    return (this.request(run).urls?.length ?? 0) > 0;
  }

  /** queued → running: resolves the pages to read, records them, sends `extract.started`. */
  async start(run: AgentRunRecord): Promise<boolean> {
    const request = this.request(run);
    const { urls, notes } = await this.resolve(run, request);
    const memory: PlannerMemory = initialMemory(urls, run.memory.strategy);
    const agent = orchestrator(run.id);
    const events: PendingEvent[] = [
      { key: 'start:agent', agent, body: { type: 'agent.started' } },
      { key: 'start:strategy', agent, body: { type: 'reasoning.summary', text: EXTRACT_STRATEGY } },
      {
        key: 'start:progress',
        agent,
        body: {
          type: 'progress.reported',
          phase: 'planning',
          message: `${request.urls?.length ?? 0} URL(s) given, ${memory.candidates.length} page(s) to read${notes.length ? `; ${notes.join(' ')}` : ''}`,
        },
      },
    ];
    await this.deps.runs.update(run.id, {
      whenState: ['queued'],
      state: 'running',
      step: run.step + 1,
      memory,
      events,
      warning: notes.length ? notes.join(' ') : undefined,
      webhooks: extractWebhookEvents(request.webhook, 'started'),
    });
    return true;
  }

  /** Extract wording for the planner's endings. */
  finishMessage(run: AgentRunRecord, decision: Extract<Decision, { kind: 'finish' }>): string | undefined {
    if (decision.outcome === 'refused') return nothingToReadMessage(this.strict(run));
    if (decision.outcome === 'failed') return unreadableMessage(run.memory.pages);
    return decision.message;
  }

  taskOptions(run: AgentRunRecord): Pick<TaskInput, 'scrapeOptions' | 'timeoutMs' | 'origin'> {
    const request = this.request(run);
    const scrapeOptions = request.scrapeOptions as Record<string, unknown> | undefined;
    return {
      scrapeOptions,
      timeoutMs: request.timeout ?? request.scrapeOptions?.timeout ?? this.deps.config.agent.scrapeTimeoutMs,
      origin: 'extract',
    };
  }

  extraction(run: AgentRunRecord): { schema?: JsonSchema; prompt: string; systemPrompt?: string } {
    const request = this.request(run);
    return {
      schema: request.schema,
      prompt: extractTask(request.prompt ?? '', !!request.schema),
      systemPrompt: request.systemPrompt,
    };
  }

  /** The run's warning joined with the extraction's. */
  warning(run: AgentRunRecord, extraction?: string): string | undefined {
    const parts = [run.warning, extraction?.replace(/^agent:/, 'extract:')].filter(
      (part): part is string => !!part,
    );
    return parts.length ? parts.join(' ') : undefined;
  }

  sources(
    run: AgentRunRecord,
    value: unknown,
    pages: readonly PageInput[],
  ): Record<string, string[]> | undefined {
    if (!this.request(run).showSources) return undefined;
    return findSources(
      value,
      pages.map((page) => ({ url: page.url, text: `${page.markdown}\n${page.html ?? ''}` })),
    );
  }

  /** `extract.completed` (with the final status body) or `extract.failed`, as subscribed. */
  async finishWebhooks(
    run: AgentRunRecord,
    termination: Termination,
    outcome: { data?: unknown; credits: number; warning?: string; sources?: unknown },
  ): Promise<WebhookEventRow[]> {
    const request = this.request(run);
    if (!request.webhook) return [];
    if (termination.state !== 'completed')
      return extractWebhookEvents(request.webhook, 'failed', { error: termination.error?.message });
    const result = extractStatusBody(
      {
        state: 'completed',
        outcome: 'succeeded',
        data: outcome.data,
        errorMessage: null,
        warning: outcome.warning ?? null,
        sources: outcome.sources ?? null,
        expiresAt: run.expiresAt,
        creditsSpent: outcome.credits,
        showSources: request.showSources,
      },
      await this.deps.runs.tokensUsed(run.id),
    );
    return extractWebhookEvents(request.webhook, 'completed', { result });
  }

  /** The pages to read: given URLs, site globs expanded by map, web search results; capped by the limit. */
  private async resolve(
    run: AgentRunRecord,
    request: ExtractRequest,
  ): Promise<{ urls: string[]; notes: string[] }> {
    const cap = this.limits(run).maxPages;
    const urls: string[] = [];
    const seen = new Set<string>();
    const add = (url: string) => {
      const key = urlKey(url);
      if (urls.length >= cap || seen.has(key)) return;
      seen.add(key);
      urls.push(url);
    };
    const notes: string[] = [];
    for (const given of request.urls ?? []) {
      const base = siteGlobBase(given);
      if (!base) {
        add(given.trim());
        continue;
      }
      const links = await this.expand(run, request, base, cap);
      if (links.length === 0)
        notes.push(`No pages were found on ${base} (map of ${given}); its start page was read.`);
      (links.length ? links : [base]).forEach(add);
    }
    if (request.enableWebSearch) {
      const query = request.prompt?.trim();
      if (!query) notes.push('enableWebSearch: there is no prompt to search for; web search was skipped.');
      else if (!this.deps.search)
        notes.push(
          'enableWebSearch: no web search provider is configured (SEARCH_PROVIDER_URL); only the given URLs and this team’s index were read.',
        );
      else {
        try {
          const results = await searchWeb(this.deps.search, query, this.deps.config.search.timeoutMs);
          results.forEach((result) => add(result.url));
        } catch (error) {
          this.deps.logger.warn({ err: error, runId: run.id }, 'extract: web search failed');
          notes.push(
            `enableWebSearch: the web search provider failed (${describe(error)}); its results are missing.`,
          );
        }
      }
    }
    return { urls, notes };
  }

  private async expand(
    run: AgentRunRecord,
    request: ExtractRequest,
    base: string,
    limit: number,
  ): Promise<string[]> {
    try {
      const links = await this.deps.map.discover(
        { teamId: run.teamId, zeroDataRetention: false },
        mapRequestSchema.parse({
          url: base,
          ...(request.prompt?.trim() ? { search: request.prompt.trim().slice(0, 1_000) } : {}),
          sitemap: request.ignoreSitemap ? 'skip' : 'include',
          includeSubdomains: request.includeSubdomains,
          allowExternalLinks: request.allowExternalLinks,
          limit,
          timeout: this.deps.config.agent.scrapeTimeoutMs,
        }),
      );
      return links.map((link) => link.url);
    } catch (error) {
      this.deps.logger.warn({ err: error, runId: run.id, url: base }, 'extract: site map failed');
      return [];
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
