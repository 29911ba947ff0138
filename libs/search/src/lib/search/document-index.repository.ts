import type { Database, Raw } from '@quarry/platform/database';

import type { SearchIndexer } from './search-indexer';

export interface IndexHit {
  url: string;
  title: string | null;
  description: string | null;
  snippet: string | null;
  rank: number;
}

export interface IndexedUrl {
  url: string;
  title: string | null;
  description: string | null;
}

/** Host filters as one case-insensitive regular expression over document URLs. */
export function domainPattern(domains: readonly string[], subdomains = true): string {
  const alternatives = domains
    .map((domain) =>
      domain
        .toLowerCase()
        .replace(/^\*\./, '')
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('|');
  return `^https?://${subdomains ? '([^/?#@]*\\.)?' : ''}(${alternatives})(:[0-9]+)?([/?#]|$)`;
}

/**
 * The team's stored documents as a search index: PostgreSQL full-text search over the
 * `documents.search` vector (title A, description B, markdown C), newest copy of each URL. The
 * vectors are computed off the write path; a search first indexes the team's pending documents.
 */
export class DocumentIndexRepository {
  constructor(
    private readonly db: Database,
    private readonly indexer: SearchIndexer,
  ) {}

  async search(
    teamId: string,
    query: string,
    options: { limit: number; include?: string[]; exclude?: string[] },
  ): Promise<IndexHit[]> {
    await this.indexer.indexTeam(teamId);
    const params: unknown[] = [teamId, query, options.limit];
    let filter = '';
    if (options.include?.length) {
      params.push(domainPattern(options.include));
      filter += ` AND d.url ~* $${params.length}`;
    }
    if (options.exclude?.length) {
      params.push(domainPattern(options.exclude));
      filter += ` AND d.url !~* $${params.length}`;
    }
    const rows = await this.db.sql.query<Raw>(
      `WITH q AS (SELECT websearch_to_tsquery('english', $2) AS query),
       latest AS (
         SELECT DISTINCT ON (d.url_key) d.url, d.title, d.description, d.content, ts_rank_cd(d.search, q.query) AS rank
         FROM documents d, q
         WHERE d.team_id = $1 AND d.search @@ q.query AND d.status_code < 400${filter}
         ORDER BY d.url_key, d.created_at DESC),
       top AS (SELECT * FROM latest ORDER BY rank DESC, url LIMIT $3)
       SELECT top.url, top.title, top.description, top.rank,
         ts_headline('english', left(coalesce(top.content ->> 'markdown', ''), 5000), q.query, 'MaxWords=40, MinWords=12, StartSel="", StopSel=""') AS snippet
       FROM top, q ORDER BY top.rank DESC, top.url`,
      params,
    );
    return rows.map((row) => ({
      url: String(row['url']),
      title: (row['title'] as string | null) ?? null,
      description: (row['description'] as string | null) ?? null,
      snippet: (row['snippet'] as string | null) ?? null,
      rank: Number(row['rank']),
    }));
  }

  /** URLs the team already scraped on a host (and its subdomains), newest copy first per URL: map's index source. */
  async urlsOnHost(teamId: string, host: string, subdomains: boolean, limit: number): Promise<IndexedUrl[]> {
    const rows = await this.db.sql.query<Raw>(
      `SELECT url, title, description FROM (
         SELECT DISTINCT ON (url_key) url, title, description, created_at FROM documents
         WHERE team_id = $1 AND url ~* $2 AND status_code < 400 ORDER BY url_key, created_at DESC) latest
       ORDER BY created_at DESC LIMIT $3`,
      [teamId, domainPattern([host], subdomains), limit],
    );
    return rows.map((row) => ({
      url: String(row['url']),
      title: (row['title'] as string | null) ?? null,
      description: (row['description'] as string | null) ?? null,
    }));
  }
}
