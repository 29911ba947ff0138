import type { ScrapeDocument, ScrapeRequest } from '@quarry/contracts';
import { Database, GroupedStatement } from '@quarry/platform/database';

import { oldestAcceptable, scrapeCacheKey } from './cache-key';

export interface CacheHit {
  document: ScrapeDocument;
  cachedAt: Date;
  documentId: string;
}

/** Stored documents kept in memory by id (a document is never changed once stored), at most this many bytes of JSON. */
const CONTENT_MEMO_BYTES = 32 * 1024 * 1024;
/** Larger documents are read from the database each time. */
const CONTENT_MEMO_MAX_ENTRY = 1024 * 1024;
/** How long the newest entry read for a team's cache key answers without reading again (see ScrapeCache). */
export const ENTRY_VIEW_MS = 1_000;
/** Cache keys whose newest entry is remembered, at most (least recently read dropped first). */
const ENTRY_VIEW_MAX = 10_000;

interface ViewEntry {
  id: string;
  createdAt: number;
  /** When the read that found it was sent (the database state is at least this recent). */
  checkedAt: number;
}

/**
 * The scrape cache and index: documents stored by earlier scrapes of the same team, found by
 * cache key and age. The gateway answers hits itself, so a hit never reaches the bus or a worker.
 *
 * The lookup reads only the entry's id and age, grouped with concurrent lookups into one statement
 * (typed raw SQL: on the cache-hit path the CPU profile showed the ORM's per-statement work, one
 * round trip per request and parsing the whole stored document on every hit as the largest costs);
 * the document itself comes from a small in-memory copy by id, read once per document.
 *
 * The newest entry of a team's cache key is remembered for `ENTRY_VIEW_MS` (the entry view): a
 * lookup it can answer — no `minAge`, the entry young enough for `maxAge` — needs no read, so a
 * cache hit waits on one round trip (recording the job), not two. A newer entry is seen within
 * that time (until then the previous one answers, still within the request's `maxAge`); a deleted
 * one is seen at once, because the hit's job is recorded only while its document exists
 * (`FinishedJobWriter`), and the caller then looks up again with `fresh`. Misses always read.
 */
export class ScrapeCache {
  private readonly contents = new Map<string, { document: ScrapeDocument; bytes: number }>();
  private contentBytes = 0;
  private readonly entries = new Map<string, ViewEntry>();

  /** Concurrent lookups read together, one statement per round trip (see `GroupedStatement`). */
  private readonly lookups: GroupedStatement<LookupInput, LookupRow | undefined>;

  constructor(private readonly db: Database) {
    this.lookups = new GroupedStatement((inputs) => readEntries(db, inputs));
  }

  /**
   * The newest entry younger than `maxAge`; with `minAge` (cache-only), the newest entry at least that
   * old whatever its age (`minAge: 1` accepts any cached copy). Undefined on a miss. `fresh`: read
   * the database even when the entry view could answer (the entry it knew is gone).
   */
  async lookup(
    teamId: string,
    request: ScrapeRequest,
    options: { now?: number; fresh?: boolean } = {},
  ): Promise<CacheHit | undefined> {
    const now = options.now ?? Date.now();
    const minAge = request.minAge;
    const upper = minAge !== undefined ? new Date(now - minAge) : null;
    // minAge: at least that old (any age up to maxAge under lockdown, whose maxAge defaults to 2 years).
    const lower = minAge === undefined || request.lockdown ? oldestAcceptable(request, now) : null;
    const cacheKey = scrapeCacheKey(request);
    const viewKey = `${teamId}\n${cacheKey}`;
    if (options.fresh) this.entries.delete(viewKey);
    else if (upper === null) {
      const known = this.entries.get(viewKey);
      if (known && now - known.checkedAt <= ENTRY_VIEW_MS && (!lower || known.createdAt >= lower.getTime())) {
        const hit = await this.hitOf(known.id, known.createdAt);
        if (hit) return hit;
      }
    }
    const checkedAt = Date.now();
    const row = await this.lookups.submit({ teamId, cacheKey, lower, upper });
    if (!row?.id) return undefined;
    const createdAt = (
      row.created_at instanceof Date ? row.created_at : new Date(String(row.created_at))
    ).getTime();
    // Without an upper bound the answer is the key's newest entry: the view may answer for it.
    if (upper === null) this.view(viewKey, { id: row.id, createdAt, checkedAt });
    return this.hitOf(row.id, createdAt);
  }

  private async hitOf(documentId: string, createdAt: number): Promise<CacheHit | undefined> {
    const document = await this.content(documentId);
    if (!document) return undefined; // deleted in between: a miss
    return { document, cachedAt: new Date(createdAt), documentId };
  }

  private view(key: string, entry: ViewEntry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > ENTRY_VIEW_MAX) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
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
      { prepareAs: 'scrape_cache_content' },
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
  id: string | null;
  created_at: unknown;
}

/** Each lookup's newest acceptable entry (id and age only), in input order. */
async function readEntries(db: Database, inputs: LookupInput[]): Promise<(LookupRow | undefined)[]> {
  const rows = await db.sql.query<LookupRow>(
    `SELECT i.n, d.id, d.created_at
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
    { prepareAs: 'scrape_cache_entries' },
  );
  const byIndex = new Map(rows.map((row) => [Number(row.n), row]));
  return inputs.map((_, index) => byIndex.get(index + 1));
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}
