import { randomBytes, timingSafeEqual } from 'node:crypto';

import {
  Body,
  Controller,
  Headers,
  HttpCode,
  Inject,
  Module,
  type OnApplicationShutdown,
  Post,
  Req,
} from '@nestjs/common';

import { CreditsService } from '@quarry/billing';
import { AppError } from '@quarry/contracts';
import { AuthService, IdentityRepository, KeyManagementService } from '@quarry/identity';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';
import { isLoopbackAddress } from '@quarry/platform/net';
import { Public } from '@quarry/platform/runtime';

import { runAdminCommand } from './admin-commands';
import { removeStandaloneHandle, writeStandaloneHandle } from './standalone-handle';

const TOKEN = randomBytes(32).toString('hex');

/** Loopback-only endpoint through which the CLI administers a running one-process server. */
@Controller('internal/admin')
class AdminController {
  constructor(
    @Inject(Database) private readonly database: Database,
    @Inject(IdentityRepository) private readonly identity: IdentityRepository,
    @Inject(KeyManagementService) private readonly keys: KeyManagementService,
    @Inject(CreditsService) private readonly credits: CreditsService,
    @Inject(AuthService) private readonly auth: AuthService,
  ) {}

  @Public()
  @Post('commands')
  @HttpCode(200)
  async run(
    @Req() request: { raw: { socket: { remoteAddress?: string } } },
    @Headers('x-admin-token') token: string | undefined,
    @Body() body: { argv?: unknown },
  ) {
    // The peer of the TCP connection itself: X-Forwarded-For (trusted for request.ip) can be forged by anyone.
    const loopback = isLoopbackAddress(request.raw.socket.remoteAddress ?? '');
    const valid =
      typeof token === 'string' &&
      token.length === TOKEN.length &&
      timingSafeEqual(Buffer.from(token), Buffer.from(TOKEN));
    if (!loopback || !valid) throw new AppError('FORBIDDEN');
    if (!Array.isArray(body?.argv) || !body.argv.every((arg) => typeof arg === 'string'))
      throw new AppError('BAD_REQUEST');
    const output = await runAdminCommand(body.argv as string[], {
      database: this.database,
      identity: this.identity,
      keys: this.keys,
      credits: this.credits,
    });
    this.auth.invalidate(); // revocations and team changes apply at once in this process
    return output;
  }
}

/** Publishes this server's admin address for the CLI (call once listening). */
export function publishAdminHandle(dataDir: string, url: string): void {
  writeStandaloneHandle(dataDir, { pid: process.pid, url, token: TOKEN });
}

class StandaloneHandleLifecycle implements OnApplicationShutdown {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  onApplicationShutdown(): void {
    removeStandaloneHandle(this.config.dataDir, process.pid);
  }
}

@Module({ controllers: [AdminController], providers: [StandaloneHandleLifecycle] })
export class AdminApiModule {}
