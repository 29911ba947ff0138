import { main } from '@quarry/platform/runtime';

import { ScrapeWorkerAppModule } from './scrape-worker-app.module';

main({ name: 'scrape-worker', migrates: false, module: (runtime) => ScrapeWorkerAppModule.forRoot(runtime) });
