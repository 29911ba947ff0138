import type { Logger } from 'pino';

import { BoundedMap } from '@quarry/contracts';

import type { FrontierRepository } from '../frontier/frontier.repository';
import type { RobotsFetcher } from './robots-fetcher';
import { RobotsRules } from './robots-rules';

const WAIT_FOR_OTHER_FETCHER_MS = 15_000;
const MEMORY_ENTRIES = 5_000;

/**
 * robots.txt per crawl and origin, fetched once: the first worker to need it claims the origin's row
 * and fetches; the others wait for the stored copy. Parsed rules are kept in memory.
 */
export class RobotsService {
  private readonly memory = new BoundedMap<string, RobotsRules>(MEMORY_ENTRIES);

  constructor(
    private readonly frontier: FrontierRepository,
    private readonly fetcher: RobotsFetcher,
    private readonly logger: Logger,
  ) {}

  /** Rules already known to this process (no I/O), for checks at discovery time. */
  cached(crawlId: string, origin: string): RobotsRules | undefined {
    return this.memory.get(`${crawlId} ${origin}`);
  }

  async rulesFor(
    crawlId: string,
    origin: string,
    userAgent: string,
    signal?: AbortSignal,
  ): Promise<RobotsRules> {
    const key = `${crawlId} ${origin}`;
    const known = this.memory.get(key);
    if (known) return known;
    const rules = await this.load(crawlId, origin, userAgent, signal);
    this.memory.set(key, rules);
    return rules;
  }

  private async load(
    crawlId: string,
    origin: string,
    userAgent: string,
    signal?: AbortSignal,
  ): Promise<RobotsRules> {
    if (await this.frontier.claimRobots(crawlId, origin))
      return this.fetchAndStore(crawlId, origin, userAgent, signal);
    const deadline = Date.now() + WAIT_FOR_OTHER_FETCHER_MS;
    for (;;) {
      const stored = await this.frontier.loadRobots(crawlId, origin);
      if (stored?.ready) return RobotsRules.parse(origin, stored.text, userAgent);
      if (Date.now() > deadline) {
        // The claiming worker died mid-fetch: fetch it ourselves.
        this.logger.warn({ crawlId, origin }, 'robots.txt claim went stale; fetching it again');
        return this.fetchAndStore(crawlId, origin, userAgent, signal);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async fetchAndStore(
    crawlId: string,
    origin: string,
    userAgent: string,
    signal?: AbortSignal,
  ): Promise<RobotsRules> {
    const file = await this.fetcher.fetch(origin, signal);
    await this.frontier.saveRobots(crawlId, origin, file.status, file.text);
    return RobotsRules.parse(origin, file.text, userAgent);
  }
}
