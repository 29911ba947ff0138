import { Global, Module } from '@nestjs/common';

import { AccountUsageService } from '@quarry/account';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';

/** The team's usage figures of the `/v2/team` routes. */
@Global()
@Module({
  providers: [
    {
      provide: AccountUsageService,
      useFactory: (db: Database, config: AppConfig) =>
        new AccountUsageService(db, config.limits.teamConcurrency),
      inject: [Database, APP_CONFIG],
    },
  ],
  exports: [AccountUsageService],
})
export class AccountModule {}
