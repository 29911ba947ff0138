import type { ScrapeDocument } from '@quarry/contracts';
import { Database, type Prisma, storableJson } from '@quarry/platform/database';

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

  async insertIn(tx: Prisma.TransactionClient, document: NewDocument): Promise<string> {
    const content = storableJson(document.document);
    const metadata = content.metadata;
    const row = await tx.document.create({
      data: {
        teamId: document.teamId,
        jobId: document.jobId,
        sourceUrl: document.sourceUrl,
        url: document.url,
        urlKey: document.urlKey,
        cacheKey: document.cacheKey,
        statusCode: document.statusCode,
        title: firstString(metadata.title),
        description: firstString(metadata.description),
        content: content as unknown as Prisma.InputJsonValue,
      },
      select: { id: true },
    });
    return row.id;
  }

  /** A stored document of the team by id. */
  async findForTeam(id: string, teamId: string): Promise<StoredDocument | undefined> {
    return storedOf(await this.db.prisma.document.findFirst({ where: { id, teamId } }));
  }

  async findByJob(jobId: string): Promise<StoredDocument | undefined> {
    return storedOf(
      await this.db.prisma.document.findFirst({ where: { jobId }, orderBy: { createdAt: 'asc' } }),
    );
  }
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
