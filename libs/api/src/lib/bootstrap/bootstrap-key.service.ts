import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';

import { CreditsService } from '@quarry/billing';
import { AppError } from '@quarry/contracts';
import { DEFAULT_TEAM_NAME, hashApiKey, KeyManagementService } from '@quarry/identity';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { LOGGER, type Logger } from '@quarry/platform/observability';

/**
 * `BOOTSTRAP_API_KEY`: at start, make sure team `default` owns that key and received
 * `BOOTSTRAP_CREDITS` once (the grant is idempotent across restarts).
 */
@Injectable()
export class BootstrapKeyService implements OnApplicationBootstrap {
  constructor(
    @Inject(KeyManagementService) private readonly keys: KeyManagementService,
    @Inject(CreditsService) private readonly credits: CreditsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const key = this.config.auth.bootstrapApiKey;
    if (!key) return;
    const created = await this.keys.createKey(DEFAULT_TEAM_NAME, { key, name: 'bootstrap' });
    // A balance that cannot take the grant (already near the largest one) leaves the key usable as it is.
    const granted = await this.credits
      .grant(
        created.teamId,
        this.config.auth.bootstrapCredits,
        'bootstrap credits',
        `bootstrap:${hashApiKey(key)}`,
      )
      .catch((error: unknown) => {
        if (!(error instanceof AppError) || error.code !== 'CONFLICT') throw error;
        this.logger.warn({ team: DEFAULT_TEAM_NAME, reason: error.message }, 'bootstrap credits not granted');
        return false;
      });
    this.logger.info(
      { team: DEFAULT_TEAM_NAME, granted: granted ? this.config.auth.bootstrapCredits : 0 },
      'bootstrap API key ready',
    );
  }
}
