import { registerParseUploads } from '@quarry/api';
import { main } from '@quarry/platform/http';
import { StandaloneModule } from './standalone.module';

main({ name: 'standalone', migrates: true, configureHttp: (fastify, runtime) => registerParseUploads(fastify, runtime.config), module: (runtime) => StandaloneModule.forRoot(runtime) });
