import { Inject, Injectable } from '@nestjs/common';

import { CreditsService } from '@quarry/billing';
import {
  type AdminCreateKeyRequest,
  type AdminCreateTeamRequest,
  type AdminKey,
  type AdminSystemResponse,
  type AdminTeam,
  type AdminUpdateTeamRequest,
  AppError,
  GRAFANA_DASHBOARDS,
} from '@quarry/contracts';
import {
  AuthService,
  IdentityRepository,
  KeyManagementService,
  type TeamKey,
  type TeamOverview,
} from '@quarry/identity';
import { JobRepository } from '@quarry/jobs';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { HealthRegistry } from '@quarry/platform/observability';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEALTH_TIMEOUT_MS = 3_000;

type Service = AdminSystemResponse['services'][number];

function toAdminTeam(team: TeamOverview): AdminTeam {
  return {
    ...team,
    createdAt: team.createdAt.toISOString(),
    lastUsedAt: team.lastUsedAt?.toISOString() ?? null,
  };
}

function toAdminKey(key: TeamKey): AdminKey {
  return {
    id: key.id,
    prefix: key.prefix,
    name: key.name,
    scopes: key.scopes,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}

export function requireUuid(value: string, name: string): string {
  if (!UUID.test(value)) throw new AppError('BAD_REQUEST', { message: `${name} must be a UUID` });
  return value;
}

/** The operator's view of the deployment: teams, keys, credits, limits and the health of every service. */
@Injectable()
export class OperatorService {
  constructor(
    @Inject(IdentityRepository) private readonly identity: IdentityRepository,
    @Inject(KeyManagementService) private readonly keys: KeyManagementService,
    @Inject(CreditsService) private readonly credits: CreditsService,
    @Inject(AuthService) private readonly auth: AuthService,
    @Inject(JobRepository) private readonly jobs: JobRepository,
    @Inject(HealthRegistry) private readonly health: HealthRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get defaults() {
    return {
      rateLimitPerMinute: this.config.limits.rateLimitPerMinute,
      concurrencyLimit: this.config.limits.teamConcurrency,
    };
  }

  async teams() {
    return {
      success: true as const,
      data: (await this.identity.teamsOverview()).map(toAdminTeam),
      defaults: this.defaults,
    };
  }

  async createTeam(request: AdminCreateTeamRequest) {
    const team = await this.identity.ensureTeam(request.name);
    if (!team.created) throw new AppError('CONFLICT', { message: `A team named ${request.name} exists` });
    await this.identity.updateTeamSettings(team.id, {
      ...(request.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: request.rateLimitPerMinute } : {}),
      ...(request.concurrencyLimit !== undefined ? { concurrencyLimit: request.concurrencyLimit } : {}),
    });
    if (request.credits) await this.credits.grant(team.id, request.credits, 'granted by admin');
    return this.team(team.id);
  }

  async updateTeam(teamId: string, request: AdminUpdateTeamRequest) {
    await this.requireTeam(teamId);
    await this.identity.updateTeamSettings(teamId, request);
    this.auth.invalidate(); // limits are read with the key: apply them at once in this process
    return this.team(teamId);
  }

  async grantCredits(teamId: string, amount: number, description?: string) {
    await this.requireTeam(teamId);
    await this.credits.grant(teamId, amount, description ?? 'granted by admin');
    return this.team(teamId);
  }

  async teamKeys(teamId: string) {
    await this.requireTeam(teamId);
    return { success: true as const, data: (await this.identity.keysOfTeam(teamId)).map(toAdminKey) };
  }

  async createKey(teamId: string, request: AdminCreateKeyRequest) {
    const team = await this.requireTeam(teamId);
    const created = await this.keys.createKey(team.name, { name: request.name, scopes: request.scopes });
    const key = await this.identity.findKey(created.id);
    if (!key) throw new AppError('UNKNOWN_ERROR');
    return { success: true as const, key: created.key, data: toAdminKey(key) };
  }

  async revokeKey(keyId: string) {
    const key = await this.identity.findKey(requireUuid(keyId, 'keyId'));
    if (!key) throw new AppError('NOT_FOUND', { message: 'Key not found' });
    if (key.revokedAt) throw new AppError('CONFLICT', { message: 'Key already revoked' });
    await this.keys.revoke(key.id);
    this.auth.invalidate(); // other replicas refuse it within a second (the key generation changed)
    const revoked = await this.identity.findKey(key.id);
    return { success: true as const, data: toAdminKey(revoked ?? key) };
  }

  async system(): Promise<AdminSystemResponse> {
    const own = await this.health.report();
    const remote = await Promise.all(
      Object.entries(this.config.admin.healthUrls).map(([name, url]) => readiness(name, url)),
    );
    const grafana = this.config.admin.grafanaUrl;
    return {
      success: true,
      services: [{ name: this.config.service.name, ready: own.ready, checks: own.checks }, ...remote],
      backlog: (await this.jobs.countPending()).filter((entry) => entry.count > 0),
      dashboards: grafana
        ? GRAFANA_DASHBOARDS.map((dashboard) => ({
            title: dashboard.title,
            url: `${grafana}/d/${dashboard.uid}`,
          }))
        : [],
      defaults: this.defaults,
    };
  }

  private async team(teamId: string) {
    const team = await this.identity.teamOverview(teamId);
    if (!team) throw new AppError('NOT_FOUND', { message: 'Team not found' });
    return { success: true as const, data: toAdminTeam(team) };
  }

  private async requireTeam(teamId: string): Promise<TeamOverview> {
    const team = await this.identity.teamOverview(requireUuid(teamId, 'teamId'));
    if (!team) throw new AppError('NOT_FOUND', { message: 'Team not found' });
    return team;
  }
}

/** Another service's `/readyz` (ready: 200 with `checks`; not ready: 503 with `details`). */
async function readiness(name: string, url: string): Promise<Service> {
  try {
    const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    const body = (await response.json().catch(() => ({}))) as {
      checks?: Service['checks'];
      details?: Service['checks'];
    };
    return { name, ready: response.status === 200, checks: body.checks ?? body.details ?? {} };
  } catch (error) {
    return { name, ready: false, checks: {}, error: error instanceof Error ? error.message : String(error) };
  }
}
