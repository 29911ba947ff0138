import { main } from '@quarry/platform/runtime';

import { DocParserAppModule } from './doc-parser-app.module';

main({ name: 'doc-parser', migrates: false, module: (runtime) => DocParserAppModule.forRoot(runtime) });
