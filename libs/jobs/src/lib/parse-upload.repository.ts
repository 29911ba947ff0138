import { Database } from '@quarry/platform/database';

export interface ParseUploadRecord {
  id: string;
  teamId: string;
  filename: string;
  contentType: string | null;
  declaredSize: number | null;
  blobKey: string | null;
  sizeBytes: number | null;
  createdAt: Date;
  expiresAt: Date;
  uploadedAt: Date | null;
  parsedAt: Date | null;
}

/** Upload references of `POST /v2/parse/upload-url` (docs/documents.md#other-formats-post-v2parse). */
export class ParseUploadRepository {
  constructor(private readonly db: Database) {}

  async create(upload: {
    id: string;
    teamId: string;
    filename: string;
    contentType?: string;
    declaredSize?: number;
    expiresAt: Date;
  }): Promise<ParseUploadRecord> {
    return this.db.prisma.parseUpload.create({
      data: {
        id: upload.id,
        teamId: upload.teamId,
        filename: upload.filename,
        contentType: upload.contentType,
        declaredSize: upload.declaredSize,
        expiresAt: upload.expiresAt,
      },
    });
  }

  /** References minted since `since` and not parsed (whether uploaded or not). */
  countUnparsedSince(teamId: string, since: Date): Promise<number> {
    return this.db.prisma.parseUpload.count({ where: { teamId, parsedAt: null, createdAt: { gte: since } } });
  }

  async find(id: string): Promise<ParseUploadRecord | undefined> {
    return (await this.db.prisma.parseUpload.findUnique({ where: { id } })) ?? undefined;
  }

  /** The team's reference; another team's is reported exactly like an unknown one. */
  async findForTeam(id: string, teamId: string): Promise<ParseUploadRecord | undefined> {
    return (await this.db.prisma.parseUpload.findFirst({ where: { id, teamId } })) ?? undefined;
  }

  /** Records the uploaded bytes (a new upload before parsing replaces the previous one). Returns the replaced blob key. */
  async markUploaded(id: string, blobKey: string, sizeBytes: number): Promise<string | null | undefined> {
    return this.db.prisma.$transaction(async (tx) => {
      const current = await tx.parseUpload.findUnique({
        where: { id },
        select: { blobKey: true, parsedAt: true },
      });
      if (!current || current.parsedAt) return undefined;
      await tx.parseUpload.update({ where: { id }, data: { blobKey, sizeBytes, uploadedAt: new Date() } });
      return current.blobKey;
    });
  }

  /** Marks the reference parsed (its blob is consumed by the parse); false when it already was. */
  async markParsed(id: string): Promise<boolean> {
    const result = await this.db.prisma.parseUpload.updateMany({
      where: { id, parsedAt: null },
      data: { parsedAt: new Date(), blobKey: null },
    });
    return result.count > 0;
  }
}
