import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Global,
  Module,
  type OnApplicationShutdown,
} from '@nestjs/common';

import { BlobModule } from '@quarry/platform/blob';
import { BusModule, createBus, type MessageBus, sleep } from '@quarry/platform/bus';
import { type AppConfig, ConfigModule } from '@quarry/platform/config';
import { Database, DatabaseModule, findMigrationsDir } from '@quarry/platform/database';
import {
  createLogger,
  HealthRegistry,
  type Logger,
  ObservabilityModule,
  PlatformMetrics,
  startTracing,
  type TracingHandle,
} from '@quarry/platform/observability';

/** The infrastructure of one process: config, logs, metrics, health, database and bus. */
export interface PlatformRuntime {
  config: AppConfig;
  logger: Logger;
  metrics: PlatformMetrics;
  health: HealthRegistry;
  database: Database;
  bus: MessageBus;
  tracing: TracingHandle;
}

export interface RuntimeOptions {
  /** Apply pending migrations before serving (one-process mode and development). */
  migrate: boolean;
  /** How long to keep retrying an unreachable bus at start. */
  busStartTimeoutMs?: number;
}

export async function startRuntime(config: AppConfig, options: RuntimeOptions): Promise<PlatformRuntime> {
  const tracing = await startTracing({ serviceName: config.service.name, ...config.tracing });
  const logger = createLogger({ service: config.service.name, level: config.service.logLevel });
  const metrics = new PlatformMetrics({ service: config.service.name });
  const health = new HealthRegistry();
  metrics.reportDependencies(async () =>
    Object.fromEntries(
      Object.entries((await health.report()).checks).map(([name, check]) => [name, check.ok]),
    ),
  );
  const database = await Database.open({
    ...config.database,
    onBackgroundError: (error) => logger.warn({ err: error }, 'database connection error'),
  });
  if (options.migrate) {
    const result = await database.migrate(findMigrationsDir());
    if (result.applied.length) logger.info({ applied: result.applied }, 'applied database migrations');
  }
  health.register('database', () => database.ping());
  const bus = createBus(config.bus, logger, metrics);
  metrics.reportConsumerLag(() => bus.consumerLag());
  await startWithRetry(() => bus.start(), options.busStartTimeoutMs ?? 120_000, logger);
  health.register('bus', () => bus.healthy());
  logger.info({ database: database.kind, bus: bus.driver, tracing: tracing.enabled }, 'runtime started');
  return { config, logger, metrics, health, database, bus, tracing };
}

async function startWithRetry(start: () => Promise<void>, timeoutMs: number, logger: Logger): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await start();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      logger.warn({ err: error, attempt }, 'bus not reachable yet; retrying');
      await sleep(Math.min(5_000, 500 * attempt));
    }
  }
}

/** Stops consumers before the HTTP server and database go away, so in-flight jobs finish cleanly. */
class RuntimeLifecycle implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(private readonly runtime: PlatformRuntime) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.runtime.bus.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runtime.database.close();
    await this.runtime.tracing.shutdown();
  }
}

@Global()
@Module({})
export class PlatformModule {
  static forRoot(runtime: PlatformRuntime): DynamicModule {
    return {
      module: PlatformModule,
      imports: [
        ConfigModule.forRoot(runtime.config),
        ObservabilityModule.forRoot(runtime),
        DatabaseModule.forRoot(runtime.database),
        BusModule.forRoot(runtime.bus),
        BlobModule,
      ],
      providers: [{ provide: RuntimeLifecycle, useValue: new RuntimeLifecycle(runtime) }],
      exports: [ConfigModule, ObservabilityModule, DatabaseModule, BusModule, BlobModule],
    };
  }
}
