import { registerParseUploads } from '@quarry/api';
import { main } from '@quarry/platform/http';
import { GatewayModule } from './gateway.module';

main({ name: 'gateway', migrates: true, configureHttp: (fastify, runtime) => registerParseUploads(fastify, runtime), module: (runtime) => GatewayModule.forRoot(runtime) });
