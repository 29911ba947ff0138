import { configureApiHttp } from '@quarry/api';
import { main } from '@quarry/platform/runtime';

import { GatewayModule } from './gateway.module';

main({
  name: 'gateway',
  migrates: true,
  module: (runtime) => GatewayModule.forRoot(runtime),
  configureHttp: configureApiHttp,
});
