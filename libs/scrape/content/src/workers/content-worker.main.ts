import { serveWorker, workerData } from '@quarry/platform/workers';

import type { PageLimits } from '../limits/page-limits.util';
import type { ContentCall } from './content-transformer';
import { transformPage } from './transform-page.util';

/**
 * Entry of a content worker process: pages are parsed and turned into markdown here, off the event
 * loop and out of the owner's heap, so a heavy or hostile page costs one worker process, never the
 * process that serves other work.
 */
const { limits } = workerData<{ limits?: PageLimits }>();

serveWorker<ContentCall>((call) =>
  call.op === 'ping' ? 'pong' : transformPage(call.input, call.formats, call.options, limits),
);
