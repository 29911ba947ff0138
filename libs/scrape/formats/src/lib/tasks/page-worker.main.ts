import { serveContentWorker } from '@quarry/scrape/content';

import { PAGE_TASKS } from './page-tasks';

/** Entry of a content worker process: page transforms and the formats' page tasks (PAGE_TASKS). */
serveContentWorker(PAGE_TASKS);
