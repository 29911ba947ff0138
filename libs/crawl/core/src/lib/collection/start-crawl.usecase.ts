import { randomUUID } from 'node:crypto';

import {
  AppError,
  type CollectionStartResponse,
  type CrawlRequest,
  type CrawlTaskMessage,
  hasFormat,
} from '@quarry/contracts';

import type { CollectionOptions } from '../frontier/frontier.types';
import type { Caller, CollectionServiceDeps } from './collection.types';
import { recordCollection } from './collection-records.util';
import {
  collectionConcurrency,
  collectionUrl,
  pageCost,
  pageTemplate,
  stripEnvelope,
} from './collection-rules.util';
import type { PromptOptions } from './prompt-options.util';

export type StartCrawlResponse = CollectionStartResponse & {
  promptGeneratedOptions?: PromptOptions;
  finalCrawlerOptions?: Record<string, unknown>;
};

/**
 * `POST /v2/crawl` (docs/crawl.md#crawl-options): options from the prompt, robots permission, credits (a crawl short
 * of credits gets a lower limit), the stored crawl and its kickoff task; and the prompt preview.
 */
export class StartCrawlUseCase {
  constructor(private readonly deps: CollectionServiceDeps) {}

  /** With a `prompt`, options read from it fill the fields the caller did not send (`explicitKeys`: the body's keys; explicit fields win, docs/crawl.md#crawl-options). */
  async execute(
    caller: Caller,
    input: CrawlRequest,
    idempotencyKey?: string,
    explicitKeys: ReadonlySet<string> = new Set(),
  ): Promise<StartCrawlResponse> {
    if (input.webhook) await this.deps.webhookTargets.assertAllowed(input.webhook.url);
    let request = input;
    let promptGeneratedOptions: PromptOptions | undefined;
    if (input.prompt) {
      promptGeneratedOptions = (
        await this.deps.prompts.derive(input.url, input.prompt, { teamId: caller.teamId })
      ).options;
      const applied = Object.fromEntries(
        Object.entries(promptGeneratedOptions).filter(([key]) => !explicitKeys.has(key)),
      );
      request = { ...input, ...applied };
    }
    if ((request.ignoreRobotsTxt || request.robotsUserAgent) && !caller.canOverrideRobots)
      throw new AppError('FORBIDDEN');
    const zeroDataRetention = caller.zeroDataRetention || request.zeroDataRetention;
    const template = pageTemplate(request.url, {
      ...stripEnvelope(request.scrapeOptions),
      zeroDataRetention,
      origin: request.origin,
      integration: request.integration,
    });
    const perPage = pageCost(template);
    const balance = await this.deps.credits.balance(caller.teamId);
    if (balance < perPage) throw new AppError('PAYMENT_REQUIRED');
    // A crawl short of credits gets its limit lowered instead of a 402 (docs/crawl.md#billing).
    const pageLimit = Math.max(1, Math.min(request.limit, Math.floor(balance / perPage)));
    const {
      url: _url,
      prompt,
      webhook,
      scrapeOptions: _scrapeOptions,
      zeroDataRetention: _zdr,
      origin,
      integration,
      ...crawler
    } = request;
    const id = randomUUID();
    const options: CollectionOptions = {
      crawler: { ...crawler, limit: pageLimit },
      request: template,
      wantsRawHtml: hasFormat(template.formats, 'rawHtml'),
      origin,
      integration,
      prompt,
    };
    await recordCollection(this.deps, {
      id,
      caller,
      kind: 'crawl',
      url: request.url.trim(),
      input: request,
      options,
      pageLimit,
      maxConcurrency: collectionConcurrency(caller, request.maxConcurrency, this.deps.settings),
      delayMs: request.delay ? Math.round(request.delay * 1000) : 0,
      webhook,
      zeroDataRetention,
      idempotencyKey,
      pages: [],
    });
    const kickoff: CrawlTaskMessage = { type: 'kickoff', crawlId: id, teamId: caller.teamId };
    await this.deps.bus.publish('crawlTasks', kickoff, { key: id });
    this.deps.metrics?.jobsQueued.inc({ kind: 'crawl' });
    const response = {
      success: true as const,
      id,
      url: collectionUrl(caller, this.deps.settings, 'crawl', id),
    };
    return promptGeneratedOptions
      ? { ...response, promptGeneratedOptions, finalCrawlerOptions: { ...options.crawler, prompt } }
      : response;
  }

  /** `POST /v2/crawl/params-preview` (docs/crawl.md#crawl-options): the options a prompt would set. */
  async previewParams(
    caller: Pick<Caller, 'teamId'>,
    url: string,
    prompt: string,
  ): Promise<{ success: true; data: PromptOptions & { url: string }; warning?: string }> {
    const derivation = await this.deps.prompts.derive(url, prompt, { teamId: caller.teamId });
    return {
      success: true,
      data: { url, ...derivation.options },
      ...(derivation.warning ? { warning: derivation.warning } : {}),
    };
  }
}
