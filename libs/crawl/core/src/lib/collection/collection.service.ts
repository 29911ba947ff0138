import type {
  ActiveCrawlsResponse,
  BatchScrapeRequest,
  CollectionErrorsResponse,
  CollectionStartResponse,
  CollectionStatusResponse,
  CrawlRequest,
  ScrapeDocument,
} from '@quarry/contracts';
import type { JobRecord } from '@quarry/jobs';

import type { CollectionKind, CollectionRow } from '../frontier/frontier.types';
import { CancelCollectionUseCase } from './cancel-collection.usecase';
import type { Caller, CollectionServiceDeps } from './collection.types';
import { parseIdempotencyKey } from './collection-rules.util';
import type { PromptOptions } from './prompt-options.util';
import { ReadCollectionUseCase } from './read-collection.usecase';
import { StartBatchUseCase } from './start-batch.usecase';
import { type StartCrawlResponse, StartCrawlUseCase } from './start-crawl.usecase';

export type { Caller, CollectionServiceDeps, CollectionServiceSettings } from './collection.types';

/**
 * Crawls and batch scrapes as the API sees them (docs/crawl.md#crawl-options, docs/crawl.md#batch-scrape): one entry point over the use cases
 * (start a crawl, start or extend a batch, read, cancel), so controllers, the v1 translation, the
 * watcher and monitors hold one object.
 */
export class CollectionService {
  private readonly startCrawlCase: StartCrawlUseCase;
  private readonly startBatchCase: StartBatchUseCase;
  private readonly reads: ReadCollectionUseCase;
  private readonly cancelCase: CancelCollectionUseCase;

  constructor(deps: CollectionServiceDeps) {
    this.startCrawlCase = new StartCrawlUseCase(deps);
    this.startBatchCase = new StartBatchUseCase(deps);
    this.reads = new ReadCollectionUseCase(deps);
    this.cancelCase = new CancelCollectionUseCase(deps);
  }

  /** `POST /v2/crawl`; `explicitKeys` are the body's keys (they win over options read from a prompt). */
  startCrawl(
    caller: Caller,
    input: CrawlRequest,
    idempotencyKey?: string,
    explicitKeys?: ReadonlySet<string>,
  ): Promise<StartCrawlResponse> {
    return this.startCrawlCase.execute(caller, input, idempotencyKey, explicitKeys);
  }

  /** `POST /v2/crawl/params-preview` (docs/crawl.md#crawl-options): the options a prompt would set. */
  previewParams(
    caller: Pick<Caller, 'teamId'>,
    url: string,
    prompt: string,
  ): Promise<{ success: true; data: PromptOptions & { url: string }; warning?: string }> {
    return this.startCrawlCase.previewParams(caller, url, prompt);
  }

  startBatch(
    caller: Caller,
    request: BatchScrapeRequest,
    idempotencyKey?: string,
  ): Promise<CollectionStartResponse> {
    return this.startBatchCase.execute(caller, request, idempotencyKey);
  }

  status(
    caller: Caller,
    kind: CollectionKind,
    id: string,
    page?: { skip?: number; limit?: number },
  ): Promise<CollectionStatusResponse> {
    return this.reads.status(caller, kind, id, page);
  }

  /** The status object without documents (WebSocket `catchup` and `done`). */
  summary(
    caller: Caller,
    kind: CollectionKind,
    id: string,
  ): Promise<{ job: JobRecord; collection: CollectionRow; status: CollectionStatusResponse }> {
    return this.reads.summary(caller, kind, id);
  }

  cancel(caller: Caller, kind: CollectionKind, id: string): Promise<{ status: 'cancelled' }> {
    return this.cancelCase.execute(caller, kind, id);
  }

  errors(caller: Caller, kind: CollectionKind, id: string): Promise<CollectionErrorsResponse> {
    return this.reads.errors(caller, kind, id);
  }

  active(caller: Caller): Promise<ActiveCrawlsResponse> {
    return this.reads.active(caller);
  }

  /** Documents finished after `afterSeq` (WebSocket `document` frames). */
  documentsAfter(
    id: string,
    afterSeq: number,
    limit: number,
  ): Promise<{ seq: number; document: ScrapeDocument }[]> {
    return this.reads.documentsAfter(id, afterSeq, limit);
  }

  static parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
    return parseIdempotencyKey(header);
  }
}
