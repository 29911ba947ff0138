import {
  addIndexHits,
  type AgentRunRecord,
  orchestrator,
  type PendingEvent,
  searchWeb,
  WEB_SEARCH_RESULTS,
} from '@quarry/agent/domain';
import { isDatabaseUnavailable } from '@quarry/platform/database';

import type { IndexSearch } from '../index-search';
import type { AgentRunnerDeps } from './agent-runner.deps';
import { describe, round } from './run-policy.util';

/** The `search_index` step: the team's index and, when the caller named no sources, the web. */
export class SearchStepUseCase {
  constructor(private readonly deps: AgentRunnerDeps) {}

  async execute(run: AgentRunRecord, query: string): Promise<boolean> {
    const agent = orchestrator(run.id);
    const callId = `${run.id}:search`;
    // A failing index search is a failed tool call: the run goes on with the given URLs and the web.
    let hits: Awaited<ReturnType<IndexSearch['search']>> = [];
    let searched: unknown;
    try {
      hits = await this.deps.index.search(run.teamId, query, 10);
      searched = { hits: hits.map((hit) => ({ url: hit.url, title: hit.title, score: round(hit.score) })) };
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error;
      this.deps.logger.warn({ err: error, runId: run.id }, 'agent index search failed');
      searched = { error: `The index search failed (${describe(error)}); the run continues without it.` };
    }
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
          result: searched,
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
}
