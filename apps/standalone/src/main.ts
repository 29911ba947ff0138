import { configureApiHttp } from '@quarry/api';
import { main } from '@quarry/platform/http';
import { StandaloneModule } from './standalone.module';

main({ name: 'standalone', migrates: true, module: (runtime) => StandaloneModule.forRoot(runtime), configureHttp: configureApiHttp });
