import { Global, Module } from '@nestjs/common';

import { CreditsService, RateLimiter } from '@quarry/billing';
import { Database } from '@quarry/platform/database';

@Global()
@Module({
  providers: [
    { provide: CreditsService, useFactory: (db: Database) => new CreditsService(db), inject: [Database] },
    { provide: RateLimiter, useFactory: (db: Database) => new RateLimiter(db), inject: [Database] },
  ],
  exports: [CreditsService, RateLimiter],
})
export class BillingModule {}
