import { Database, Prisma } from '@quarry/platform/database';

export interface ChangeSnapshot {
  markdown: string;
  values: Record<string, unknown> | null;
  removed: boolean;
  scrapedAt: Date;
}

export interface SnapshotKey {
  teamId: string;
  urlKey: string;
  tag: string | null;
}

/** The latest scrape of a page per team, URL and tag: what change tracking compares against. */
export class ChangeSnapshotRepository {
  constructor(private readonly db: Database) {}

  async find(key: SnapshotKey): Promise<ChangeSnapshot | undefined> {
    const row = await this.db.prisma.changeTrackingSnapshot.findUnique({
      where: { teamId_urlKey_tag: { teamId: key.teamId, urlKey: key.urlKey, tag: key.tag ?? '' } },
    });
    if (!row) return undefined;
    return {
      markdown: row.markdown,
      values: (row.values as Record<string, unknown> | null) ?? null,
      removed: row.removed,
      scrapedAt: row.scrapedAt,
    };
  }

  async save(key: SnapshotKey, snapshot: ChangeSnapshot): Promise<void> {
    const data = {
      markdown: snapshot.markdown,
      values: snapshot.values === null ? Prisma.DbNull : (snapshot.values as Prisma.InputJsonValue),
      removed: snapshot.removed,
      scrapedAt: snapshot.scrapedAt,
    };
    await this.db.prisma.changeTrackingSnapshot.upsert({
      where: { teamId_urlKey_tag: { teamId: key.teamId, urlKey: key.urlKey, tag: key.tag ?? '' } },
      create: { teamId: key.teamId, urlKey: key.urlKey, tag: key.tag ?? '', ...data },
      update: data,
    });
  }
}
