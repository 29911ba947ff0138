import { type DynamicModule, Module } from '@nestjs/common';

import { ApiModule, OperatorApiModule } from '@quarry/api';
import { PlatformModule, type PlatformRuntime } from '@quarry/platform/runtime';

/** The gateway: the public HTTP API, the admin API and the web console; work goes to the workers over Kafka. */
@Module({})
export class GatewayModule {
  static forRoot(runtime: PlatformRuntime): DynamicModule {
    return {
      module: GatewayModule,
      imports: [PlatformModule.forRoot(runtime), ApiModule, OperatorApiModule],
    };
  }
}
