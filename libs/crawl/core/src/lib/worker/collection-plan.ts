import { BoundedMap, type ScrapeRequest } from '@quarry/contracts';

import type { FrontierRepository } from '../frontier/frontier.repository';
import type { CollectionRow } from '../frontier/frontier.types';
import { CrawlScope } from '../url/crawl-scope';

export interface CrawlSettings {
  /** robots.txt user-agent token when the crawl names none. */
  robotsUserAgent: string;
  /** Consecutive same-shape hops before a chain counts as a link trap. */
  trapMaxRun: number;
  /** Upper bound of frontier rows per crawl. */
  maxFrontier: number;
}

/** The immutable part of a collection, compiled once per process: scope, request template, robots agent. */
export class CollectionPlan {
  readonly scope?: CrawlScope;
  readonly robotsUserAgent: string;
  readonly frontierCap: number;

  constructor(
    readonly collection: CollectionRow,
    settings: CrawlSettings,
  ) {
    const crawler = collection.options.crawler;
    if (collection.kind === 'crawl' && crawler && collection.url)
      this.scope = new CrawlScope(collection.url, crawler, settings.trapMaxRun);
    this.robotsUserAgent = crawler?.robotsUserAgent ?? settings.robotsUserAgent;
    this.frontierCap = Math.min(settings.maxFrontier, collection.pageLimit * 2 + 1_000);
  }

  get isCrawl(): boolean {
    return this.collection.kind === 'crawl';
  }

  get obeysRobots(): boolean {
    return this.isCrawl && !this.collection.options.crawler?.ignoreRobotsTxt;
  }

  /** Whether pages are read for links (not for batches, not for sitemap-only crawls). */
  get discoversLinks(): boolean {
    return this.isCrawl && this.collection.options.crawler?.sitemap !== 'only';
  }

  /** The scrape request of one page; crawls also ask for the raw HTML (link discovery reads it). */
  requestFor(url: string): ScrapeRequest {
    const template = this.collection.options.request;
    const formats =
      this.discoversLinks && !this.collection.options.wantsRawHtml
        ? [...template.formats, { type: 'rawHtml' as const }]
        : template.formats;
    return { ...template, formats, url } as ScrapeRequest;
  }
}

const MAX_PLANS = 1_000;

/** Plans by collection id (the settings of a collection never change once it is created). */
export class CollectionPlans {
  private readonly plans = new BoundedMap<string, CollectionPlan>(MAX_PLANS);

  constructor(
    private readonly frontier: FrontierRepository,
    private readonly settings: CrawlSettings,
  ) {}

  async get(id: string): Promise<CollectionPlan | undefined> {
    const known = this.plans.get(id);
    if (known) return known;
    const collection = await this.frontier.loadCollection(id);
    if (!collection) return undefined;
    const plan = new CollectionPlan(collection, this.settings);
    this.plans.set(id, plan);
    return plan;
  }
}
