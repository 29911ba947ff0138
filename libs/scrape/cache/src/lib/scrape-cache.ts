import type { ScrapeDocument, ScrapeRequest } from '@quarry/contracts';
import { Database } from '@quarry/platform/database';

import { oldestAcceptable, scrapeCacheKey } from './cache-key';

export interface CacheHit {
  document: ScrapeDocument;
  cachedAt: Date;
  documentId: string;
}

/**
 * The scrape cache and index: documents stored by earlier scrapes of the same team, found by
 * cache key and age. The gateway answers hits itself, so a hit never reaches the bus or a worker.
 */
export class ScrapeCache {
  constructor(private readonly db: Database) {}

  /**
   * The newest entry younger than `maxAge`; with `minAge` (cache-only), the newest entry at least that
   * old whatever its age (`minAge: 1` accepts any cached copy). Undefined on a miss.
   */
  async lookup(teamId: string, request: ScrapeRequest, now = Date.now()): Promise<CacheHit | undefined> {
    const row = await this.db.prisma.document.findFirst({
      where: {
        teamId,
        cacheKey: scrapeCacheKey(request),
        // minAge: at least that old (any age up to maxAge under lockdown, whose maxAge defaults to 2 years).
        createdAt:
          request.minAge !== undefined
            ? {
                lte: new Date(now - request.minAge),
                ...(request.lockdown ? { gte: oldestAcceptable(request, now) } : {}),
              }
            : { gte: oldestAcceptable(request, now) },
      },
      orderBy: { createdAt: 'desc' },
      select: { id: true, content: true, createdAt: true },
    });
    if (!row) return undefined;
    return {
      document: row.content as unknown as ScrapeDocument,
      cachedAt: row.createdAt,
      documentId: row.id,
    };
  }
}
