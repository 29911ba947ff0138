import { serveContentWorker } from './content-worker.serve';

/** Entry of a content worker process that transforms pages only (see serveContentWorker). */
serveContentWorker();
