import { publishAdminHandle } from '@quarry/admin';
import { registerParseUploads } from '@quarry/api';
import { main } from '@quarry/platform/http';
import { StandaloneModule } from './standalone.module';

main({
  name: 'standalone',
  migrates: true,
  module: (runtime) => StandaloneModule.forRoot(runtime),
  configureHttp: (fastify, runtime) => registerParseUploads(fastify, runtime),
  afterListen: (url, runtime) => publishAdminHandle(runtime.config.dataDir, url),
});
