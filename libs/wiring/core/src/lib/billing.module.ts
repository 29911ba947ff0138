import { Global, Module } from '@nestjs/common';
import { Database } from '@quarry/platform/database';
import { CreditsService, RateLimiter } from '@quarry/billing';

@Global()
@Module({
  providers: [
    { provide: CreditsService, useFactory: (db: Database) => new CreditsService(db), inject: [Database] },
    { provide: RateLimiter, useFactory: (db: Database) => new RateLimiter(db), inject: [Database] },
  ],
  exports: [CreditsService, RateLimiter],
})
export class BillingModule {}
