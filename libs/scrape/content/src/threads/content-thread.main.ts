import { serveThread } from '@quarry/platform/threads';
import type { ContentCall } from './content-transformer';
import { transformPage } from './transform-page.util';

/**
 * Entry of a content worker thread: pages are parsed and turned into markdown here, off the event
 * loop, so a heavy or hostile page costs one thread's time and heap, never the process's.
 */
serveThread<ContentCall>((call) =>
  call.op === 'ping' ? 'pong' : transformPage(call.input, call.formats, call.options),
);
