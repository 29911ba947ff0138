import { isAcceptableHttpUrl } from '@quarry/contracts';
import type { Database } from '@quarry/platform/database';
import { Bm25, terms } from '@quarry/scrape/formats';

export interface IndexHit {
  url: string;
  title?: string;
  score: number;
}

/** Candidate documents examined per search (the team's most recent page per URL). */
const SCAN_LIMIT = 2_000;

/**
 * "Search the index": the team's stored web pages (its scrape results, which are also its cache),
 * ranked against the query by BM25 over title, description and markdown. Documents that are not
 * http(s) pages (parsed uploads, named after their file) are never hits: nothing could read them.
 */
export class IndexSearch {
  constructor(private readonly db: Database) {}

  async search(teamId: string, query: string, limit = 10): Promise<IndexHit[]> {
    let rows = await this.db.sql.query<{
      url: string;
      title: string | null;
      description: string | null;
      markdown: string | null;
    }>(
      `SELECT url, title, description, markdown FROM (
         SELECT DISTINCT ON (url_key) url, title, description, left(content->>'markdown', 20000) AS markdown, created_at
         FROM documents WHERE team_id = $1::uuid AND status_code < 400 AND url ~* '^https?://'
         ORDER BY url_key, created_at DESC
       ) latest ORDER BY created_at DESC LIMIT ${SCAN_LIMIT}`,
      [teamId],
    );
    // Only web pages are hits: uploads (indexed under their file name) and browser error pages are not.
    rows = rows.filter((row) => isAcceptableHttpUrl(row.url));
    if (rows.length === 0) return [];
    const queryTerms = terms(query);
    if (queryTerms.length === 0) return [];
    const documents = rows.map((row) =>
      terms(`${row.title ?? ''} ${row.title ?? ''} ${row.description ?? ''} ${row.markdown ?? ''}`),
    );
    const bm25 = new Bm25(documents);
    return rows
      .map((row, index) => ({
        url: row.url,
        title: row.title ?? undefined,
        score: bm25.score(queryTerms, index),
      }))
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  }
}
