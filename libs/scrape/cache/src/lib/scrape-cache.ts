import type { ScrapeDocument, ScrapeRequest } from '@quarry/contracts';
import { Database, GroupedStatement } from '@quarry/platform/database';

import { oldestAcceptable, scrapeCacheKey } from './cache-key';

export interface CacheHit {
  document: ScrapeDocument;
  cachedAt: Date;
  documentId: string;
}

/** The team's balance read with the lookup (the credit pre-check of a cacheable scrape), and the hit if any. */
export interface CacheAdmission {
  balance: number;
  hit?: CacheHit;
}

/** Stored documents kept in memory by id (a document is never changed once stored), at most this many bytes of JSON. */
const CONTENT_MEMO_BYTES = 32 * 1024 * 1024;
/** Larger documents are read from the database each time. */
const CONTENT_MEMO_MAX_ENTRY = 1024 * 1024;

/**
 * The scrape cache and index: documents stored by earlier scrapes of the same team, found by
 * cache key and age. The gateway answers hits itself, so a hit never reaches the bus or a worker.
 *
 * The lookup reads only the entry's id and age, with the team's balance, grouped with concurrent
 * lookups into one statement (typed raw SQL: on the cache-hit path the CPU profile showed the ORM's
 * per-statement work, one round trip per request and parsing the whole stored document on every hit
 * as the largest costs); the document itself comes from a small in-memory copy by id, read once per
 * document. Which entry answers is still decided by the database on every request, so a deleted or
 * newer entry is seen at once.
 */
export class ScrapeCache {
  private readonly contents = new Map<string, { document: ScrapeDocument; bytes: number }>();
  private contentBytes = 0;

  /** Concurrent lookups read together, one statement per round trip (see `GroupedStatement`). */
  private readonly lookups: GroupedStatement<LookupInput, LookupRow | undefined>;

  constructor(private readonly db: Database) {
    this.lookups = new GroupedStatement((inputs) => readEntries(db, inputs));
  }

  /**
   * The newest entry younger than `maxAge`; with `minAge` (cache-only), the newest entry at least that
   * old whatever its age (`minAge: 1` accepts any cached copy). Undefined on a miss.
   */
  async lookup(teamId: string, request: ScrapeRequest, now = Date.now()): Promise<CacheHit | undefined> {
    return (await this.admit(teamId, request, now)).hit;
  }

  /**
   * The lookup and the team's credit balance in one statement (one round trip for the pre-check and
   * the cache on the hit path), shared with the lookups of concurrent requests.
   */
  async admit(teamId: string, request: ScrapeRequest, now = Date.now()): Promise<CacheAdmission> {
    const minAge = request.minAge;
    const upper = minAge !== undefined ? new Date(now - minAge) : null;
    // minAge: at least that old (any age up to maxAge under lockdown, whose maxAge defaults to 2 years).
    const lower = minAge === undefined || request.lockdown ? oldestAcceptable(request, now) : null;
    const row = await this.lookups.submit({ teamId, cacheKey: scrapeCacheKey(request), lower, upper });
    const balance = Number(row?.credits ?? 0);
    if (!row?.id) return { balance };
    const document = await this.content(row.id);
    if (!document) return { balance }; // deleted in between: a miss
    const cachedAt = row.created_at instanceof Date ? row.created_at : new Date(String(row.created_at));
    return { balance, hit: { document, cachedAt, documentId: row.id } };
  }

  private async content(documentId: string): Promise<ScrapeDocument | undefined> {
    const known = this.contents.get(documentId);
    if (known) {
      // Most recently used last.
      this.contents.delete(documentId);
      this.contents.set(documentId, known);
      return known.document;
    }
    const rows = await this.db.sql.query<{ content: unknown }>(
      'SELECT content FROM documents WHERE id = $1::uuid',
      [documentId],
    );
    if (rows.length === 0) return undefined;
    const raw = rows[0].content;
    const document = (typeof raw === 'string' ? JSON.parse(raw) : raw) as ScrapeDocument;
    const bytes = typeof raw === 'string' ? raw.length : JSON.stringify(raw).length;
    if (bytes <= CONTENT_MEMO_MAX_ENTRY) this.remember(documentId, document, bytes);
    return document;
  }

  private remember(documentId: string, document: ScrapeDocument, bytes: number): void {
    deepFreeze(document); // shared by every hit of this document: nothing may change it
    this.contents.set(documentId, { document, bytes });
    this.contentBytes += bytes;
    for (const [id, entry] of this.contents) {
      if (this.contentBytes <= CONTENT_MEMO_BYTES) break;
      this.contents.delete(id);
      this.contentBytes -= entry.bytes;
    }
  }
}

interface LookupInput {
  teamId: string;
  cacheKey: string;
  lower: Date | null;
  upper: Date | null;
}

interface LookupRow {
  n: number | string;
  credits: number | null;
  id: string | null;
  created_at: unknown;
}

/** Each lookup's newest acceptable entry (id and age only) and its team's balance, in input order. */
async function readEntries(db: Database, inputs: LookupInput[]): Promise<(LookupRow | undefined)[]> {
  const rows = await db.sql.query<LookupRow>(
    `SELECT i.n, (SELECT credits FROM teams WHERE id = i.team_id) AS credits, d.id, d.created_at
     FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::timestamptz[]) WITH ORDINALITY
       AS i(team_id, cache_key, lower_bound, upper_bound, n)
     LEFT JOIN LATERAL (
       SELECT id, created_at FROM documents
       WHERE team_id = i.team_id AND cache_key = i.cache_key
         AND (i.lower_bound IS NULL OR created_at >= i.lower_bound)
         AND (i.upper_bound IS NULL OR created_at <= i.upper_bound)
       ORDER BY created_at DESC
       LIMIT 1
     ) AS d ON true`,
    [
      inputs.map((input) => input.teamId),
      inputs.map((input) => input.cacheKey),
      inputs.map((input) => input.lower),
      inputs.map((input) => input.upper),
    ],
  );
  const byIndex = new Map(rows.map((row) => [Number(row.n), row]));
  return inputs.map((_, index) => byIndex.get(index + 1));
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}
