import { Global, Module } from '@nestjs/common';

import {
  type AuthContext,
  AuthService,
  DEFAULT_TEAM_NAME,
  IdentityRepository,
  KeyManagementService,
} from '@quarry/identity';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';
import { PlatformMetrics } from '@quarry/platform/observability';

@Global()
@Module({
  providers: [
    {
      provide: IdentityRepository,
      useFactory: (db: Database) => new IdentityRepository(db),
      inject: [Database],
    },
    {
      provide: KeyManagementService,
      useFactory: (repo: IdentityRepository) => new KeyManagementService(repo),
      inject: [IdentityRepository],
    },
    {
      provide: AuthService,
      useFactory: (repo: IdentityRepository, config: AppConfig, metrics: PlatformMetrics) => {
        let cached: Promise<AuthContext> | undefined;
        const defaultTeam = () =>
          (cached ??= repo.ensureTeam(DEFAULT_TEAM_NAME).then(async (team) => {
            const row = await repo.findTeamById(team.id);
            return {
              teamId: team.id,
              teamName: team.name,
              scopes: ['*'],
              zeroDataRetention: row?.zeroDataRetention ?? false,
              rateLimitPerMinute: 0,
              concurrencyLimit: row?.concurrencyLimit ?? undefined,
            };
          }));
        return new AuthService(repo, {
          enabled: config.auth.enabled,
          defaultTeam,
          onLookup: (source, result) => metrics.authKeyLookups.inc({ source, result }),
          // A process that authenticates requests follows revocations within a second (docs/operations.md).
          refreshInBackground: true,
        });
      },
      inject: [IdentityRepository, APP_CONFIG, PlatformMetrics],
    },
  ],
  exports: [IdentityRepository, KeyManagementService, AuthService],
})
export class IdentityModule {}
