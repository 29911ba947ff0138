import { randomUUID } from 'node:crypto';

import type { ScrapeDocument } from '@quarry/contracts';
import { Database, date, json, type Raw, storableJson } from '@quarry/platform/database';

export interface StoredDocument {
  id: string;
  jobId: string | null;
  document: ScrapeDocument;
  createdAt: Date;
}

export interface NewDocument {
  teamId: string;
  jobId: string;
  sourceUrl: string;
  url: string;
  urlKey: string;
  cacheKey?: string;
  statusCode: number;
  document: ScrapeDocument;
}

/** Stored scrape results (also the team's cache and search index). */
export class DocumentRepository {
  constructor(private readonly db: Database) {}

  /** A stored document of the team by id. */
  async findForTeam(id: string, teamId: string): Promise<StoredDocument | undefined> {
    return storedOf(await this.db.prisma.document.findFirst({ where: { id, teamId } }));
  }

  /** The first document of a job: one raw statement (it is the read of every synchronous scrape's result). */
  async findByJob(jobId: string): Promise<StoredDocument | undefined> {
    const [row] = await this.db.sql.query<Raw>(
      `SELECT id, job_id, content, created_at FROM documents WHERE job_id = $1::uuid ORDER BY created_at ASC LIMIT 1`,
      [jobId],
    );
    return row
      ? storedOf({
          id: String(row['id']),
          jobId: row['job_id'] === null ? null : String(row['job_id']),
          content: json(row['content']),
          createdAt: date(row['created_at']) as Date,
        })
      : undefined;
  }
}

/**
 * The documents of one job as the parameters of an `INSERT … SELECT … FROM unnest(…)` (see
 * JobOutcomeStore): ids, source URLs, URLs, URL keys, cache keys, status codes, titles,
 * descriptions and contents (JSON text), index for index.
 */
export function documentColumns(documents: readonly Omit<NewDocument, 'jobId' | 'teamId'>[]): unknown[][] {
  const contents = documents.map((entry) => storableJson(entry.document));
  return [
    documents.map(() => randomUUID()),
    documents.map((entry) => entry.sourceUrl),
    documents.map((entry) => entry.url),
    documents.map((entry) => entry.urlKey),
    documents.map((entry) => entry.cacheKey ?? null),
    documents.map((entry) => entry.statusCode),
    contents.map((content) => firstString(content.metadata.title) ?? null),
    contents.map((content) => firstString(content.metadata.description) ?? null),
    contents.map((content) => JSON.stringify(content)),
  ];
}

function storedOf(
  row: { id: string; jobId: string | null; content: unknown; createdAt: Date } | null,
): StoredDocument | undefined {
  return row
    ? { id: row.id, jobId: row.jobId, document: row.content as ScrapeDocument, createdAt: row.createdAt }
    : undefined;
}

function firstString(value: unknown): string | undefined {
  if (typeof value === 'string') return value.slice(0, 2_000);
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0].slice(0, 2_000);
  return undefined;
}
