import { Database } from '@quarry/platform/database';
import type { AuthContext } from './auth-context';

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
    settings: { rateLimitPerMinute?: number | null; concurrencyLimit?: number | null; zeroDataRetention?: boolean },
  ): Promise<void> {
    await this.db.prisma.team.update({ where: { id: teamId }, data: settings });
  }

  async insertKey(data: { teamId: string; hash: string; prefix: string; name?: string; scopes: string[] }): Promise<string> {
    const key = await this.db.prisma.apiKey.upsert({
      where: { hash: data.hash },
      create: data,
      update: {},
    });
    return key.id;
  }

  async revokeKeys(where: { prefix?: string; id?: string; hash?: string }): Promise<number> {
    const result = await this.db.prisma.apiKey.updateMany({
      where: { revokedAt: null, ...(where.id ? { id: where.id } : {}), ...(where.prefix ? { prefix: where.prefix } : {}), ...(where.hash ? { hash: where.hash } : {}) },
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
}
