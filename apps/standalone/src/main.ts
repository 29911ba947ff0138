import { publishAdminHandle } from '@quarry/admin';
import { configureApiHttp } from '@quarry/api';
import { main } from '@quarry/platform/runtime';

import { StandaloneModule } from './standalone.module';

main({
  name: 'standalone',
  migrates: true,
  module: (runtime) => StandaloneModule.forRoot(runtime),
  configureHttp: configureApiHttp,
  afterListen: (url, runtime) => publishAdminHandle(runtime.config.dataDir, url),
});
