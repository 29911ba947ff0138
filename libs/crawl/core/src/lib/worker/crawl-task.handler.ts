import type { Logger } from 'pino';

import { scrapeCredits } from '@quarry/billing';
import {
  AppError,
  BoundedMap,
  type CrawlTaskMessage,
  type JobError,
  pageKindOf,
  quarantineError,
  type ScrapeDocument,
} from '@quarry/contracts';
import { type SuspectGate, UNSTORABLE_RESULT } from '@quarry/jobs';
import { isDataError } from '@quarry/platform/database';
import type { PlatformMetrics } from '@quarry/platform/observability';
import type { ScrapeOutcome, ScrapePipeline } from '@quarry/scrape/engine';

import type { Dispatcher } from '../frontier/dispatcher';
import type { FrontierRepository } from '../frontier/frontier.repository';
import type { NewPage, PageRow } from '../frontier/frontier.types';
import type { PageOutcomeWriter } from '../frontier/page-outcome.writer';
import { discoverLinks } from '../links/discover-links.util';
import type { RobotsService } from '../robots/robots.service';
import type { RobotsRules } from '../robots/robots-rules';
import type { SitemapFetcher } from '../sitemap/sitemap-fetcher';
import type { FrontierCandidate } from '../url/crawl-scope';
import { parseHttpUrl } from '../url/crawl-url.util';
import type { CollectionEvents } from '../webhooks/collection-events';
import type { CollectionPlan, CollectionPlans } from './collection-plan';

export interface CrawlTaskHandlerDeps {
  frontier: FrontierRepository;
  outcomes: PageOutcomeWriter;
  plans: CollectionPlans;
  dispatcher: Dispatcher;
  robots: RobotsService;
  sitemaps: SitemapFetcher;
  pipeline: ScrapePipeline;
  events: CollectionEvents;
  metrics: PlatformMetrics;
  logger: Logger;
  /** Time budget of sitemap collection at kickoff. */
  sitemapTimeoutMs: number;
  /** Runs of a page without an outcome after which it is quarantined as poison (WORK_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** How long a run holds its page (CRAWL_PAGE_LEASE_MS): a duplicate delivery within it is not a new run. */
  pageLeaseMs: number;
  /** The process's one gate: pages suspected of a process death run alone. */
  gate: SuspectGate;
}

/**
 * Executes crawl and batch work from `crawl.tasks` on any worker. Kickoff: robots.txt, sitemaps and
 * the start URL into the frontier. Page: scrape, discover links, then store the outcome (document,
 * links, charge, webhook event) in one transaction guarded by the page's `dispatched` state, so a
 * redelivered or duplicated message never stores or charges twice.
 */
export class CrawlTaskHandler {
  /** Frontier keys this process knows are stored, per crawl (bounded). */
  private readonly knownLinks = new BoundedMap<string, Set<string>>(64);

  constructor(private readonly deps: CrawlTaskHandlerDeps) {}

  async handle(message: CrawlTaskMessage): Promise<void> {
    if (message.type === 'kickoff') await this.kickoff(message.crawlId);
    else await this.page(message.pageId, message.crawlId);
  }

  // --- kickoff -----------------------------------------------------------------------------------

  private async kickoff(crawlId: string): Promise<void> {
    const { frontier, dispatcher } = this.deps;
    const plan = await this.deps.plans.get(crawlId);
    if (!plan) return;
    const collection = await frontier.loadCollection(crawlId);
    if (!collection || !['queued', 'active'].includes(collection.jobStatus)) return;
    if (collection.kickedOffAt || !plan.scope) {
      if (!collection.kickedOffAt) await frontier.transaction((tx) => frontier.markKickedOffIn(tx, crawlId));
      dispatcher.kick(crawlId);
      return;
    }
    const scope = plan.scope;
    const start = scope.startCandidate();
    const rules = plan.obeysRobots
      ? await this.deps.robots.rulesFor(crawlId, start.origin, plan.robotsUserAgent)
      : undefined;
    const pages: NewPage[] = [toNewPage(start, rules, 0)];
    const crawler = collection.options.crawler;
    if (crawler && crawler.sitemap !== 'skip') {
      const roots = [...(rules?.sitemaps() ?? []), `${start.origin}/sitemap.xml`];
      const found = await this.deps.sitemaps.collect(roots, {
        deadline: Date.now() + this.deps.sitemapTimeoutMs,
      });
      for (const url of found.urls) {
        if (pages.length >= plan.frontierCap) break;
        const decision = scope.sitemapUrl(url);
        if (!decision.accepted) continue;
        const sameOrigin = decision.candidate.origin === start.origin;
        pages.push(toNewPage(decision.candidate, sameOrigin ? rules : undefined, pages.length));
      }
      this.deps.logger.info(
        { crawlId, sitemaps: found.sitemaps.length, urls: found.urls.length, kept: pages.length - 1 },
        'sitemaps read',
      );
    }
    await frontier.transaction(async (tx) => {
      // the start URL first: it is dispatched before the sitemap's pages
      await frontier.addPagesIn(tx, crawlId, collection.teamId, pages.slice(0, 1));
      await frontier.addPagesIn(tx, crawlId, collection.teamId, pages.slice(1));
      await frontier.markKickedOffIn(tx, crawlId);
    });
    dispatcher.kick(crawlId);
  }

  // --- pages -------------------------------------------------------------------------------------

  private async page(pageId: string, crawlId: string): Promise<void> {
    const { frontier, dispatcher } = this.deps;
    const page = await frontier.loadPage(pageId);
    if (!page) return;
    if (page.status !== 'dispatched') {
      dispatcher.kick(crawlId);
      return;
    }
    if (!['queued', 'active'].includes(page.jobStatus)) {
      await frontier.endPage(page, 'skipped');
      return;
    }
    const plan = await this.deps.plans.get(crawlId);
    if (!plan) return;
    await this.deps.gate.run(page.starts > 0, () => this.run(page, plan));
    dispatcher.kick(crawlId);
  }

  private async run(page: PageRow, plan: CollectionPlan): Promise<void> {
    const { frontier, metrics } = this.deps;
    const start = await frontier.startPage(page.id, this.deps.maxAttempts, this.deps.pageLeaseMs);
    // Gone: stored meanwhile. Running: a duplicate delivery of a page a live run holds; that run
    // records the outcome, or its death lets the lease expire and the sweeper re-sends the page.
    if (start === 'gone' || start === 'running') return;
    if (start === 'exhausted') return this.quarantine(page, plan);
    // Pages are counted as `crawl_page` / `batch_scrape_page` (contracts' METRIC_JOB_KINDS); their credits under the collection's kind.
    const kind = pageKindOf(plan.collection.kind);
    metrics.jobsRunning.inc({ kind });
    const startedAt = Date.now();
    try {
      const outcome = await this.process(page, plan).catch(async (error: unknown) => {
        if (!isDataError(error)) throw error;
        // The database refused the page's result: retrying cannot help.
        this.deps.logger.error(
          { err: error, crawlId: page.crawlId, pageId: page.id },
          'crawl page result could not be stored',
        );
        return this.fail(page, plan, UNSTORABLE_RESULT);
      });
      metrics.jobsFinished.inc({ kind, outcome });
      metrics.jobDuration.observe({ kind, engine: 'any' }, (Date.now() - startedAt) / 1000);
    } finally {
      metrics.jobsRunning.dec({ kind });
    }
  }

  private async process(page: PageRow, plan: CollectionPlan): Promise<string> {
    const { frontier, events } = this.deps;
    const collection = plan.collection;
    let rules: RobotsRules | undefined;
    if (plan.obeysRobots) {
      rules = await this.deps.robots.rulesFor(page.crawlId, page.origin, plan.robotsUserAgent);
      if (!rules.isAllowed(page.url)) {
        await frontier.endPage(page, 'robots_blocked');
        return 'robots_blocked';
      }
    }
    const request = plan.requestFor(page.url);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), request.timeout);
    let document: ScrapeDocument;
    let fetched: boolean;
    let billing: ScrapeOutcome['billing'];
    try {
      const outcome = await this.deps.pipeline.run(request, {
        jobId: page.id,
        teamId: page.teamId,
        signal: controller.signal,
        timeoutMs: request.timeout,
      });
      document = outcome.document;
      fetched = outcome.fetched;
      billing = outcome.billing;
    } catch (error) {
      if (!(error instanceof AppError)) {
        // Infrastructure trouble: the bus redelivers, and this run does not count against the page.
        await frontier.releasePage(page.id).catch(() => undefined);
        throw error;
      }
      return this.fail(page, plan, { code: error.code, message: error.message });
    } finally {
      clearTimeout(timer);
    }

    const discovered: NewPage[] = [];
    if (plan.isCrawl) {
      const status = document.metadata.statusCode;
      if (!fetched)
        return this.fail(page, plan, {
          code: 'FORBIDDEN',
          message: String(document.metadata.error ?? 'Blocked target URL'),
        });
      if (status >= 400)
        return this.fail(page, plan, {
          code: 'SCRAPE_SITE_ERROR',
          message: `The page answered HTTP ${status}${document.metadata.error ? ` ${document.metadata.error}` : ''}`,
        });
      const redirect = await this.checkRedirect(page, plan, document.metadata.url);
      if (redirect) return redirect;
      const rawHtml = document.rawHtml;
      if (!collection.options.wantsRawHtml) delete document.rawHtml;
      if (plan.discoversLinks && typeof rawHtml === 'string')
        for (const link of this.discover(page, plan, rawHtml, document.metadata.url, rules))
          discovered.push(link);
    }

    const credits = fetched
      ? scrapeCredits({
          formats: request.formats.filter(
            (format) => format.type !== 'rawHtml' || collection.options.wantsRawHtml,
          ),
          zeroDataRetention: request.zeroDataRetention,
          redactPII: request.redactPII,
          lockdown: request.lockdown,
          checkPromptInjection: request.checkPromptInjection,
          ...billing,
        })
      : 0;
    document.metadata.creditsUsed = credits;
    const store = !collection.zeroDataRetention;
    const fresh = this.unknownLinks(page.crawlId, discovered);
    let result: Awaited<ReturnType<PageOutcomeWriter['submit']>>;
    try {
      result = await this.deps.outcomes.submit({
        page,
        collection,
        document,
        store,
        credits,
        discovered: fresh,
        event: events.page(collection, store ? { success: true } : { success: true, document }),
      });
    } catch (error) {
      // A page the store refuses (a browser error page) fails like any unloadable page.
      if (!(error instanceof AppError)) throw error;
      return this.fail(page, plan, { code: error.code, message: error.message });
    }
    if (result.stored || result.reason === 'already-handled') this.remember(page.crawlId, fresh);
    if (result.stored) {
      this.deps.metrics.creditsConsumed.inc({ kind: collection.kind }, credits);
      return 'completed';
    }
    if (result.reason === 'no-credits') {
      await this.outOfCredits(page, plan);
      return 'no_credits';
    }
    if (result.reason === 'inactive') await frontier.endPage(page, 'skipped');
    return result.reason;
  }

  /** Links this process already put in the frontier are not sent again (most pages repeat their navigation). */
  private unknownLinks(crawlId: string, pages: NewPage[]): NewPage[] {
    const known = this.knownLinks.get(crawlId);
    return known ? pages.filter((page) => !known.has(page.urlKey)) : pages;
  }

  private remember(crawlId: string, pages: NewPage[]): void {
    if (pages.length === 0) return;
    let known = this.knownLinks.get(crawlId);
    if (!known) {
      known = new Set<string>();
      this.knownLinks.set(crawlId, known);
    }
    if (known.size > 250_000) known.clear();
    for (const page of pages) known.add(page.urlKey);
  }

  /** Links of a page that the crawl follows; robots-blocked ones are recorded as such when the rules are known. */
  private discover(
    page: PageRow,
    plan: CollectionPlan,
    html: string,
    finalUrl: string,
    rules: RobotsRules | undefined,
  ): NewPage[] {
    const scope = plan.scope;
    const base = parseHttpUrl(finalUrl) ?? parseHttpUrl(page.url);
    if (!scope || !base || page.frontierSize >= plan.frontierCap) return [];
    const parent = { url: base, depth: page.depth, trapRun: page.trapRun };
    const out: NewPage[] = [];
    const seen = new Set<string>();
    // discovery order: pages found earlier (and earlier on their page) come first within a depth
    const rankBase = Date.now() * 1_000;
    for (const link of discoverLinks(html, base.href)) {
      const decision = scope.link(link, parent);
      if (!decision.accepted || seen.has(decision.candidate.urlKey)) continue;
      seen.add(decision.candidate.urlKey);
      const known =
        decision.candidate.origin === page.origin
          ? rules
          : plan.obeysRobots
            ? this.deps.robots.cached(page.crawlId, decision.candidate.origin)
            : undefined;
      out.push(toNewPage(decision.candidate, known, rankBase + Math.min(out.length, 999)));
      if (page.frontierSize + out.length >= plan.frontierCap) break;
    }
    return out;
  }

  /** A page that redirected: off-scope targets are errors, targets another page owns are duplicates. */
  private async checkRedirect(
    page: PageRow,
    plan: CollectionPlan,
    finalUrl: string,
  ): Promise<string | undefined> {
    const scope = plan.scope;
    const target = parseHttpUrl(finalUrl);
    if (!scope || !target) return undefined;
    const key = scope.keyOf(target);
    if (key === page.urlKey) return undefined;
    if (!scope.allowsRedirectTarget(target.href)) {
      return this.fail(page, plan, {
        code: 'FORBIDDEN',
        message: `The page redirected to ${target.href}, which is outside the crawl`,
      });
    }
    const claimed = await this.deps.frontier.claimAlias(plan.collection, {
      url: target.href,
      urlKey: key,
      origin: target.origin.toLowerCase(),
      depth: page.depth,
      trapRun: page.trapRun,
      rank: 0,
      status: 'alias',
    });
    if (claimed) return undefined;
    await this.deps.frontier.endPage(page, 'duplicate');
    return 'duplicate';
  }

  /** Poison: the page's earlier runs all ended with their worker dying. Failed with the reason; the collection goes on. */
  private async quarantine(page: PageRow, plan: CollectionPlan): Promise<void> {
    const kind = pageKindOf(plan.collection.kind);
    await this.fail(page, plan, quarantineError(this.deps.maxAttempts));
    this.deps.metrics.workQuarantined.inc({ kind });
    this.deps.metrics.jobsFinished.inc({ kind, outcome: 'failed' });
    this.deps.logger.error({ crawlId: page.crawlId, pageId: page.id }, 'poison crawl page quarantined');
  }

  private async fail(page: PageRow, plan: CollectionPlan, error: JobError): Promise<string> {
    await this.deps.frontier.endPage(
      page,
      'failed',
      error,
      this.deps.events.page(plan.collection, { success: false, error: error.message }),
    );
    return 'failed';
  }

  /** Credits ran out: the crawl stops as `failed` with a clear error (docs/crawl.md#billing). */
  private async outOfCredits(page: PageRow, plan: CollectionPlan): Promise<void> {
    const { frontier, events } = this.deps;
    const collection = (await frontier.loadCollection(page.crawlId)) ?? plan.collection;
    const message = `Insufficient credits: the ${collection.kind === 'crawl' ? 'crawl' : 'batch scrape'} stopped after ${collection.completedCount} page(s) because the team ran out of credits.`;
    const error: JobError = { code: 'PAYMENT_REQUIRED', message };
    await frontier.endPage(page, 'failed', error);
    await frontier.transaction((tx) =>
      frontier.finishCollectionIn(
        tx,
        collection,
        'failed',
        error,
        events.finished(collection, 'failed', message),
      ),
    );
    this.deps.logger.info({ crawlId: collection.id }, 'collection stopped: out of credits');
  }
}

function toNewPage(candidate: FrontierCandidate, rules: RobotsRules | undefined, rank: number): NewPage {
  const blocked = rules ? !rules.isAllowed(candidate.url) : false;
  return {
    url: candidate.url,
    urlKey: candidate.urlKey,
    origin: candidate.origin,
    depth: candidate.depth,
    trapRun: candidate.trapRun,
    rank,
    status: blocked ? 'robots_blocked' : 'queued',
  };
}
