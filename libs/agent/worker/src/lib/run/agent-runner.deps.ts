import type { AgentRunRepository } from '@quarry/agent/domain';
import type { ExtractSteps } from '@quarry/agent/extract';
import type { DocumentRepository } from '@quarry/jobs';
import type { LlmProvider } from '@quarry/llm';
import type { MessageBus } from '@quarry/platform/bus';
import type { AppConfig } from '@quarry/platform/config';
import type { Logger, PlatformMetrics } from '@quarry/platform/observability';
import type { ContentTransformer } from '@quarry/scrape/content';
import { type PageTaskRunner, pageTaskRunner } from '@quarry/scrape/formats';
import type { ExtractionService } from '@quarry/scrape/model-formats';
import type { SearchProvider } from '@quarry/search';

import type { IndexSearch } from '../index-search';

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
  /**
   * Where the offline reading of the pages a run collected happens (structured data, offline
   * answers): a content worker process, killed past `config.agent.scrapeTimeoutMs`, so a hostile
   * page cannot hold this event loop. Absent: on this thread (tests).
   */
  pageWork?: ContentTransformer;
}

/** The page tasks of one step of a run, bounded like the scrape of one page. */
export function runPageTasks(deps: AgentRunnerDeps): PageTaskRunner {
  return pageTaskRunner(deps.pageWork, Date.now() + deps.config.agent.scrapeTimeoutMs);
}
