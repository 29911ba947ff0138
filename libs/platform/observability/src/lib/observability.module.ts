import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';

import { HealthRegistry } from './health';
import { LOGGER } from './logger';
import { PlatformMetrics } from './metrics';

/** Provides the process logger, metrics and health registry to every module. */
@Global()
@Module({})
export class ObservabilityModule {
  static forRoot(options: {
    logger: Logger;
    metrics: PlatformMetrics;
    health: HealthRegistry;
  }): DynamicModule {
    return {
      module: ObservabilityModule,
      providers: [
        { provide: LOGGER, useValue: options.logger },
        { provide: PlatformMetrics, useValue: options.metrics },
        { provide: HealthRegistry, useValue: options.health },
      ],
      exports: [LOGGER, PlatformMetrics, HealthRegistry],
    };
  }
}
