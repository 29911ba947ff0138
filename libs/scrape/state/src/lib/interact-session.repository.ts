import { randomUUID } from 'node:crypto';

import type { Database } from '@quarry/platform/database';

import type { ProfileRepository } from './profile.repository';
import { EMPTY_PROFILE, normalizeProfileState, type ProfileState } from './profile-state';

/** A session ends after this long without a call (its state is then written back as on stop). */
export const INTERACT_SESSION_IDLE_MS = 300_000;
/** The profile saving lock outlives the idle timeout by this much, so a finishing worker still holds it. */
const PROFILE_LOCK_MARGIN_MS = 60_000;

/** The scrape's browser options a session opens its page with. */
export interface InteractSessionOptions {
  url: string;
  headers?: Record<string, string>;
  mobile: boolean;
  location?: { country: string; languages?: string[] };
  profile?: { name: string; saveChanges: boolean };
  proxy: 'basic' | 'enhanced' | 'auto';
  blockAds: boolean;
  skipTlsVerification: boolean;
}

export interface InteractSessionRecord {
  id: string;
  teamId: string;
  scrapeJobId: string;
  apiKeyId?: string;
  status: 'active' | 'stopped';
  options: InteractSessionOptions;
  currentUrl: string;
  state: ProfileState;
  stopReason?: 'stopped' | 'expired';
  createdAt: Date;
  lastActiveAt: Date;
  stoppedAt?: Date;
}

interface SessionRow {
  id: string;
  team_id: string;
  scrape_job_id: string;
  api_key_id: string | null;
  status: string;
  options: unknown;
  current_url: string;
  state: unknown;
  stop_reason: string | null;
  created_at: Date | string;
  last_active_at: Date | string;
  stopped_at: Date | string | null;
}

function toRecord(row: SessionRow): InteractSessionRecord {
  return {
    id: row.id,
    teamId: row.team_id,
    scrapeJobId: row.scrape_job_id,
    apiKeyId: row.api_key_id ?? undefined,
    status: row.status === 'active' ? 'active' : 'stopped',
    options: (typeof row.options === 'string'
      ? JSON.parse(row.options)
      : row.options) as InteractSessionOptions,
    currentUrl: row.current_url,
    state: normalizeProfileState(typeof row.state === 'string' ? JSON.parse(row.state) : row.state),
    stopReason:
      row.stop_reason === 'expired' ? 'expired' : row.stop_reason === 'stopped' ? 'stopped' : undefined,
    createdAt: new Date(row.created_at),
    lastActiveAt: new Date(row.last_active_at),
    stoppedAt: row.stopped_at ? new Date(row.stopped_at) : undefined,
  };
}

const COLUMNS =
  'id, team_id, scrape_job_id, api_key_id, status, options, current_url, state, stop_reason, created_at, last_active_at, stopped_at';

/**
 * Interact sessions (docs/interact.md): at most one active session per scrape, its restore state
 * (current URL, cookies, localStorage), its idle expiry, and the end of a session, which writes the
 * state back to the scrape's profile when it saves changes (docs/scraping.md#profiles) and releases its lock.
 */
export class InteractSessionRepository {
  constructor(
    private readonly db: Database,
    private readonly profiles: ProfileRepository,
    private readonly idleMs = INTERACT_SESSION_IDLE_MS,
  ) {}

  async find(id: string): Promise<InteractSessionRecord | undefined> {
    const rows = await this.db.sql.query<SessionRow>(
      `SELECT ${COLUMNS} FROM interact_sessions WHERE id = $1`,
      [id],
    );
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /** The newest session of a scrape (active or not). */
  async latestForScrape(teamId: string, scrapeJobId: string): Promise<InteractSessionRecord | undefined> {
    const rows = await this.db.sql.query<SessionRow>(
      `SELECT ${COLUMNS} FROM interact_sessions WHERE team_id = $1 AND scrape_job_id = $2 ORDER BY created_at DESC LIMIT 1`,
      [teamId, scrapeJobId],
    );
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /**
   * The scrape's active session, touched, or a new one. A session past its idle timeout is ended
   * first (state written back). A new session that saves a profile takes the profile's saving lock:
   * 409 when another session or scrape holds it.
   */
  async open(input: {
    teamId: string;
    scrapeJobId: string;
    apiKeyId?: string;
    options: InteractSessionOptions;
  }): Promise<{ session: InteractSessionRecord; created: boolean }> {
    const outcome = await this.db.sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`interact:${input.scrapeJobId}`]);
      const rows = await tx.query<SessionRow & { fresh: boolean }>(
        `SELECT ${COLUMNS}, last_active_at > now() - ($2::int * interval '1 millisecond') AS fresh
           FROM interact_sessions WHERE scrape_job_id = $1 AND status = 'active'`,
        [input.scrapeJobId, this.idleMs],
      );
      const stale: SessionRow[] = [];
      for (const row of rows) {
        if (row.fresh) {
          const touched = await tx.query<SessionRow>(
            `UPDATE interact_sessions SET last_active_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
            [row.id],
          );
          return { session: toRecord(touched[0]), created: false, stale };
        }
        stale.push(row);
      }
      const id = randomUUID();
      const inserted = await tx.query<SessionRow>(
        `INSERT INTO interact_sessions (id, team_id, scrape_job_id, api_key_id, status, options, current_url, state)
         VALUES ($1, $2, $3, $4, 'active', $5::jsonb, $6, $7::jsonb) RETURNING ${COLUMNS}`,
        [
          id,
          input.teamId,
          input.scrapeJobId,
          input.apiKeyId ?? null,
          JSON.stringify(input.options),
          input.options.url,
          JSON.stringify(EMPTY_PROFILE),
        ],
      );
      return { session: toRecord(inserted[0]), created: true, stale };
    });
    for (const row of outcome.stale) await this.finish(toRecord(row), 'expired');
    const session = outcome.session;
    try {
      await this.holdProfileLock(session);
    } catch (error) {
      if (outcome.created) await this.finish(session, 'stopped');
      throw error;
    }
    if (outcome.created && session.options.profile) {
      // The page starts from the profile's stored state (cookies, localStorage).
      const state = await this.profiles.load(session.teamId, session.options.profile.name);
      await this.saveState(session.id, session.currentUrl, state);
      session.state = state;
    }
    return { session, created: outcome.created };
  }

  /** Takes or extends the profile saving lock of a session that saves its profile (idempotent). */
  async holdProfileLock(session: InteractSessionRecord): Promise<void> {
    const profile = session.options.profile;
    if (!profile?.saveChanges) return;
    await this.profiles.acquireSaveLock(
      session.teamId,
      profile.name,
      session.id,
      new Date(Date.now() + this.idleMs + PROFILE_LOCK_MARGIN_MS),
    );
  }

  /** Records where the page is and its storage after a call; the session counts as active now. */
  async saveState(id: string, currentUrl: string, state: ProfileState): Promise<void> {
    await this.db.sql.query(
      `UPDATE interact_sessions SET current_url = $2, state = $3::jsonb, last_active_at = now() WHERE id = $1 AND status = 'active'`,
      [id, currentUrl, JSON.stringify(state)],
    );
  }

  /**
   * Ends the session when it has had no call for the idle timeout; undefined when it is still in
   * use (a call arrived meanwhile) or already ended. `state` is the live page's, when there is one.
   */
  async expireIfIdle(
    id: string,
    live?: { url: string; state: ProfileState },
  ): Promise<InteractSessionRecord | undefined> {
    const rows = await this.db.sql.query<SessionRow>(
      `SELECT ${COLUMNS} FROM interact_sessions
        WHERE id = $1 AND status = 'active' AND last_active_at <= now() - ($2::int * interval '1 millisecond')`,
      [id, this.idleMs],
    );
    if (!rows[0]) return undefined;
    return this.finish(toRecord(rows[0]), 'expired', live);
  }

  /** Milliseconds until the session would expire (0 when it already may). */
  async idleRemainingMs(id: string): Promise<number> {
    const rows = await this.db.sql.query<{ remaining: string | number | null }>(
      `SELECT EXTRACT(EPOCH FROM (last_active_at + ($2::int * interval '1 millisecond') - now())) * 1000 AS remaining
         FROM interact_sessions WHERE id = $1 AND status = 'active'`,
      [id, this.idleMs],
    );
    return rows[0] ? Math.max(0, Math.ceil(Number(rows[0].remaining))) : 0;
  }

  /**
   * Ends a session (stop or idle expiry): records the last state, then writes it back to the
   * profile when the session saves changes (releasing the lock). Ending an ended session changes
   * nothing. Returns the ended session.
   */
  async finish(
    session: InteractSessionRecord,
    reason: 'stopped' | 'expired',
    live?: { url: string; state: ProfileState },
  ): Promise<InteractSessionRecord> {
    const rows = await this.db.sql.query<SessionRow>(
      `UPDATE interact_sessions
          SET status = 'stopped', stop_reason = $2, stopped_at = now(),
              current_url = COALESCE($3, current_url), state = COALESCE($4::jsonb, state)
        WHERE id = $1 AND status = 'active' RETURNING ${COLUMNS}`,
      [session.id, reason, live?.url ?? null, live ? JSON.stringify(live.state) : null],
    );
    if (!rows[0]) return (await this.find(session.id)) ?? session;
    const ended = toRecord(rows[0]);
    const profile = ended.options.profile;
    if (profile?.saveChanges) {
      const saved = await this.profiles.save(ended.teamId, profile.name, ended.id, ended.state);
      if (!saved) await this.profiles.release(ended.teamId, profile.name, ended.id);
    }
    return ended;
  }

  /** Credits charged for the session's calls (one `interact` job per call). */
  async creditsBilled(session: InteractSessionRecord): Promise<number> {
    const rows = await this.db.sql.query<{ total: string | number | null }>(
      `SELECT COALESCE(SUM(credits_used), 0) AS total FROM jobs
        WHERE team_id = $1 AND kind = 'interact' AND status = 'completed' AND input->>'sessionId' = $2`,
      [session.teamId, session.id],
    );
    return Number(rows[0]?.total ?? 0);
  }
}
