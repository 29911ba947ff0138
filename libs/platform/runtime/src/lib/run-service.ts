import type { DynamicModule } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';

import { type AppConfig, ConfigError, loadConfig } from '@quarry/platform/config';

import { createHttpApp } from './create-http-app';
import { type PlatformRuntime, startRuntime } from './platform-runtime';

export interface ServiceDefinition {
  /** Default service name (logs, metrics), overridable by SERVICE_NAME. */
  name: string;
  /** Builds the root module of the service from its runtime. */
  module: (runtime: PlatformRuntime) => DynamicModule;
  /** Whether this service applies migrations at start (when DATABASE_MIGRATE_ON_START allows). */
  migrates: boolean;
  configureHttp?: (fastify: FastifyInstance, runtime: PlatformRuntime) => Promise<void> | void;
  /** Called once the server listens, with its actual address (PORT may be 0). */
  afterListen?: (url: string, runtime: PlatformRuntime) => Promise<void> | void;
}

export interface RunningService {
  runtime: PlatformRuntime;
  url: string;
  close: () => Promise<void>;
}

/** Boots a service: validated config, runtime, HTTP server (API and/or probes), readiness. */
export async function runService(definition: ServiceDefinition, config?: AppConfig): Promise<RunningService> {
  const resolved = config ?? loadConfig(undefined, { serviceName: definition.name });
  const runtime = await startRuntime(resolved, {
    migrate: definition.migrates && resolved.database.migrateOnStart,
  });
  const app = await createHttpApp(definition.module(runtime), {
    logger: runtime.logger,
    metrics: runtime.metrics,
    bodyLimitBytes: resolved.limits.maxBodyBytes,
    configure: (fastify) => definition.configureHttp?.(fastify, runtime),
  });
  await app.listen(resolved.service.port, resolved.service.host);
  runtime.health.markStarted();
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  await definition.afterListen?.(url, runtime);
  runtime.logger.info({ url, publicUrl: resolved.service.publicUrl }, `${resolved.service.name} listening`);
  return { runtime, url, close: () => app.close() };
}

/** Entry point helper for `main.ts`: prints configuration errors plainly and exits non-zero on failure. */
export function main(definition: ServiceDefinition): void {
  runService(definition).catch((error: unknown) => {
    if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
    else
      process.stderr.write(
        `${definition.name} failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    process.exit(1);
  });
}
