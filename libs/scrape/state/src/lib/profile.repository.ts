import { AppError } from '@quarry/contracts';
import { Database, type Prisma } from '@quarry/platform/database';

import { EMPTY_PROFILE, mergeProfileState, normalizeProfileState, type ProfileState } from './profile-state';

/**
 * Named browser profiles of a team (docs/scraping.md#profiles). Reading is free; writing back needs the
 * profile's saving lock, which one job holds at a time (a second saver gets 409) until it saves,
 * releases, or its lease runs out (a crashed worker cannot keep a profile locked).
 */
export class ProfileRepository {
  constructor(private readonly db: Database) {}

  async load(teamId: string, name: string): Promise<ProfileState> {
    const row = await this.db.prisma.browserProfile.findUnique({
      where: { teamId_name: { teamId, name } },
      select: { state: true },
    });
    return row ? normalizeProfileState(row.state) : { ...EMPTY_PROFILE };
  }

  /**
   * Takes the saving lock for `jobId` until `until` (idempotent for the same job); throws 409 when
   * another job holds it.
   */
  async acquireSaveLock(teamId: string, name: string, jobId: string, until: Date): Promise<void> {
    await this.db.prisma.browserProfile.createMany({
      data: [{ teamId, name, state: EMPTY_PROFILE as unknown as Prisma.InputJsonValue }],
      skipDuplicates: true,
    });
    const now = new Date();
    const taken = await this.db.prisma.browserProfile.updateMany({
      where: {
        teamId,
        name,
        OR: [{ lockedBy: null }, { lockedBy: jobId }, { lockExpiresAt: { lt: now } }],
      },
      data: { lockedBy: jobId, lockExpiresAt: until },
    });
    if (taken.count === 0) {
      throw new AppError('SCRAPE_PROFILE_LOCKED', {
        details: {
          message: `Profile "${name}" is being saved by another session; only one saving session is allowed at a time`,
        },
      });
    }
  }

  /** Writes the session's state back and releases the lock; false when the lock was lost meanwhile. */
  async save(teamId: string, name: string, jobId: string, session: ProfileState): Promise<boolean> {
    return this.db.prisma.$transaction(async (tx) => {
      const row = await tx.browserProfile.findUnique({ where: { teamId_name: { teamId, name } } });
      if (!row || row.lockedBy !== jobId) return false;
      const state = mergeProfileState(normalizeProfileState(row.state), session);
      await tx.browserProfile.update({
        where: { id: row.id },
        data: { state: state as unknown as Prisma.InputJsonValue, lockedBy: null, lockExpiresAt: null },
      });
      return true;
    });
  }

  async release(teamId: string, name: string, jobId: string): Promise<void> {
    await this.db.prisma.browserProfile.updateMany({
      where: { teamId, name, lockedBy: jobId },
      data: { lockedBy: null, lockExpiresAt: null },
    });
  }
}
