import { main } from '@quarry/platform/http';
import { ScrapeWorkerAppModule } from './scrape-worker-app.module';

main({ name: 'scrape-worker', migrates: false, module: (runtime) => ScrapeWorkerAppModule.forRoot(runtime) });
