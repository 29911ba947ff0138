import { Module, type DynamicModule } from '@nestjs/common';
import { ApiModule } from '@quarry/api';
import { PlatformModule, type PlatformRuntime } from '@quarry/platform/http';

/** The gateway: the public HTTP API; work goes to the workers over Kafka. */
@Module({})
export class GatewayModule {
  static forRoot(runtime: PlatformRuntime): DynamicModule {
    return { module: GatewayModule, imports: [PlatformModule.forRoot(runtime), ApiModule] };
  }
}
