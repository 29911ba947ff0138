import { Database } from '@quarry/platform/database';

import type { AuthContext } from './auth-context';

export interface TeamOverview {
  id: string;
  name: string;
  credits: number;
  rateLimitPerMinute: number | null;
  concurrencyLimit: number | null;
  zeroDataRetention: boolean;
  createdAt: Date;
  activeKeys: number;
  lastUsedAt: Date | null;
}

export interface TeamKey {
  id: string;
  prefix: string;
  name: string | null;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface ApiKeySummary {
  id: string;
  teamName: string;
  prefix: string;
  name: string | null;
  scopes: string[];
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

/** Queries of teams and API keys. */
export class IdentityRepository {
  constructor(private readonly db: Database) {}

  async findActiveKey(hash: string): Promise<AuthContext | undefined> {
    const key = await this.db.prisma.apiKey.findUnique({ where: { hash }, include: { team: true } });
    if (!key || key.revokedAt) return undefined;
    return {
      teamId: key.teamId,
      teamName: key.team.name,
      apiKeyId: key.id,
      scopes: key.scopes,
      zeroDataRetention: key.team.zeroDataRetention,
      rateLimitPerMinute: key.team.rateLimitPerMinute ?? undefined,
      concurrencyLimit: key.team.concurrencyLimit ?? undefined,
    };
  }

  /** Records that a key was used, at most once a minute per key (the write is skipped otherwise). */
  async touchKey(id: string): Promise<void> {
    await this.db.sql.query(
      `UPDATE api_keys SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [id],
    );
  }

  /**
   * Changes whenever a key is created, revoked or deleted (how many keys exist and are revoked, and
   * when the newest was created and revoked): cheap enough to read twice a second, and what lets
   * every process forget the keys it found unknown and the revoked keys it still remembers.
   */
  async keyGeneration(): Promise<string> {
    const rows = await this.db.sql.query<{ generation: string }>(
      `SELECT concat_ws('/', count(*), (extract(epoch FROM max(created_at)) * 1000)::bigint,
                        count(revoked_at), (extract(epoch FROM max(revoked_at)) * 1000)::bigint) AS generation
       FROM api_keys`,
    );
    return rows[0]?.generation ?? '';
  }

  async findTeamByName(name: string) {
    return this.db.prisma.team.findUnique({ where: { name } });
  }

  async findTeamById(id: string) {
    return this.db.prisma.team.findUnique({ where: { id } });
  }

  /** Creates the team when missing; returns it and whether it was created. */
  async ensureTeam(name: string): Promise<{ id: string; name: string; created: boolean }> {
    const existing = await this.findTeamByName(name);
    if (existing) return { id: existing.id, name: existing.name, created: false };
    try {
      const team = await this.db.prisma.team.create({ data: { name } });
      return { id: team.id, name: team.name, created: true };
    } catch (error) {
      const raced = await this.findTeamByName(name);
      if (raced) return { id: raced.id, name: raced.name, created: false };
      throw error;
    }
  }

  async updateTeamSettings(
    teamId: string,
    settings: {
      rateLimitPerMinute?: number | null;
      concurrencyLimit?: number | null;
      zeroDataRetention?: boolean;
    },
  ): Promise<void> {
    await this.db.prisma.team.update({ where: { id: teamId }, data: settings });
  }

  async insertKey(data: {
    teamId: string;
    hash: string;
    prefix: string;
    name?: string;
    scopes: string[];
  }): Promise<string> {
    const key = await this.db.prisma.apiKey.upsert({
      where: { hash: data.hash },
      create: data,
      update: {},
    });
    return key.id;
  }

  async revokeKeys(where: { prefix?: string; id?: string; hash?: string }): Promise<number> {
    const result = await this.db.prisma.apiKey.updateMany({
      where: {
        revokedAt: null,
        ...(where.id ? { id: where.id } : {}),
        ...(where.prefix ? { prefix: where.prefix } : {}),
        ...(where.hash ? { hash: where.hash } : {}),
      },
      data: { revokedAt: new Date() },
    });
    return result.count;
  }

  async listKeys(teamName?: string): Promise<ApiKeySummary[]> {
    const keys = await this.db.prisma.apiKey.findMany({
      where: teamName ? { team: { name: teamName } } : {},
      include: { team: true },
      orderBy: { createdAt: 'asc' },
    });
    return keys.map((key) => ({
      id: key.id,
      teamName: key.team.name,
      prefix: key.prefix,
      name: key.name,
      scopes: key.scopes,
      revokedAt: key.revokedAt,
      lastUsedAt: key.lastUsedAt,
      createdAt: key.createdAt,
    }));
  }

  async listTeams() {
    return this.db.prisma.team.findMany({ orderBy: { createdAt: 'asc' } });
  }

  /** Every team with its balance, limits, active keys and when a key of it was last used. */
  async teamsOverview(): Promise<TeamOverview[]> {
    const teams = await this.db.prisma.team.findMany({
      orderBy: { createdAt: 'asc' },
      include: { apiKeys: { select: { revokedAt: true, lastUsedAt: true } } },
    });
    return teams.map((team) => toTeamOverview(team));
  }

  async teamOverview(teamId: string): Promise<TeamOverview | undefined> {
    const team = await this.db.prisma.team.findUnique({
      where: { id: teamId },
      include: { apiKeys: { select: { revokedAt: true, lastUsedAt: true } } },
    });
    return team ? toTeamOverview(team) : undefined;
  }

  /** The keys of a team, newest first (never their hash). */
  async keysOfTeam(teamId: string): Promise<TeamKey[]> {
    const keys = await this.db.prisma.apiKey.findMany({ where: { teamId }, orderBy: { createdAt: 'desc' } });
    return keys.map(toTeamKey);
  }

  async findKey(id: string): Promise<(TeamKey & { teamId: string }) | undefined> {
    const key = await this.db.prisma.apiKey.findUnique({ where: { id } });
    return key ? { ...toTeamKey(key), teamId: key.teamId } : undefined;
  }
}

function toTeamKey(key: {
  id: string;
  prefix: string;
  name: string | null;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): TeamKey {
  return {
    id: key.id,
    prefix: key.prefix,
    name: key.name,
    scopes: key.scopes,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    revokedAt: key.revokedAt,
  };
}

function toTeamOverview(team: {
  id: string;
  name: string;
  credits: number;
  rateLimitPerMinute: number | null;
  concurrencyLimit: number | null;
  zeroDataRetention: boolean;
  createdAt: Date;
  apiKeys: { revokedAt: Date | null; lastUsedAt: Date | null }[];
}): TeamOverview {
  const used = team.apiKeys.map((key) => key.lastUsedAt?.getTime() ?? 0).filter((at) => at > 0);
  return {
    id: team.id,
    name: team.name,
    credits: team.credits,
    rateLimitPerMinute: team.rateLimitPerMinute,
    concurrencyLimit: team.concurrencyLimit,
    zeroDataRetention: team.zeroDataRetention,
    createdAt: team.createdAt,
    activeKeys: team.apiKeys.filter((key) => !key.revokedAt).length,
    lastUsedAt: used.length ? new Date(Math.max(...used)) : null,
  };
}
