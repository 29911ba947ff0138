import { serveWorker, workerData } from '@quarry/platform/workers';

import type { PageLimits } from '../limits/page-limits.util';
import { type ContentCall, type PageTaskTable, runTaskInline } from './content-transformer';
import { transformPage } from './transform-page.util';

/**
 * The body of a content worker process: pages are parsed and turned into markdown here, and the
 * page tasks of `tasks` run here, off the owner's event loop and out of its heap, so a heavy or
 * hostile page costs one worker process — killed at the job's deadline — never the process that
 * serves other work.
 */
export function serveContentWorker(tasks: PageTaskTable = {}): void {
  const { limits } = workerData<{ limits?: PageLimits }>();
  serveWorker<ContentCall>((call) => {
    switch (call.op) {
      case 'ping':
        return 'pong';
      case 'transform':
        return transformPage(call.input, call.formats, call.options, limits);
      case 'task':
        return runTaskInline(tasks, call.name, call.args);
    }
  });
}
