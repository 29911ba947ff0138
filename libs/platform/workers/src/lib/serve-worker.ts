import { Worker } from 'node:worker_threads';

import type { WorkerCall, WorkerFailure, WorkerResponse } from './worker-protocol';

/** Sends an interim value of the running call to its caller (`WorkerProcess.call`'s `onProgress`). */
export type ProgressSender = (value: unknown) => void;

/**
 * The process side of a worker pool: answers each call with `handle`'s value, or with the error it
 * threw (name, message, `reason`), so one failing call leaves the process usable. A long call may
 * send interim values with `progress` before its answer. The process exits as soon as its parent is
 * gone (the IPC channel closes), whatever way the parent died.
 */
export function serveWorker<C extends WorkerCall>(
  handle: (call: C, progress: ProgressSender) => unknown,
): void {
  const send = process.send?.bind(process);
  if (!send) throw new Error('serveWorker() runs in a process forked by a WorkerPool');
  const reply = (response: WorkerResponse): void => {
    try {
      send(response);
    } catch (error) {
      // A value the IPC serializer cannot carry: the caller still gets an answer.
      send({ id: response.id, ok: false, error: failureOf(error) });
    }
  };
  process.on('message', (message: C & { id: number }) => {
    const progress: ProgressSender = (value) => send({ id: message.id, progress: value });
    Promise.resolve()
      .then(() => handle(message, progress))
      .then(
        (value) => reply({ id: message.id, ok: true, value }),
        (error: unknown) => reply({ id: message.id, ok: false, error: failureOf(error) }),
      );
  });
  process.on('disconnect', () => process.exit(0));
  watchParent();
}

/**
 * 'disconnect' needs a free event loop; a call stuck in synchronous work (a pathological regular
 * expression, say) would outlive a parent that was killed. A small thread of its own notices the
 * parent is gone (this process was re-parented) and kills the process whatever its main thread does.
 */
function watchParent(): void {
  const watcher = new Worker(
    `const { workerData } = require('node:worker_threads');
     setInterval(() => { if (process.ppid !== workerData.ppid) process.kill(workerData.pid, 'SIGKILL'); }, 500);`,
    {
      eval: true,
      workerData: { ppid: process.ppid, pid: process.pid },
      resourceLimits: { maxOldGenerationSizeMb: 8 },
    },
  );
  watcher.unref();
}

/** The settings the pool gave this worker process (`WorkerPoolOptions.data`): its last argument. */
export function workerData<T extends object>(): T {
  const raw = process.argv[process.argv.length - 1];
  return (raw?.startsWith('{') ? JSON.parse(raw) : {}) as T;
}

function failureOf(error: unknown): WorkerFailure {
  const failure = error instanceof Error ? error : new Error(String(error));
  const reason = (failure as { reason?: unknown }).reason;
  return {
    name: failure.name,
    message: failure.message.slice(0, 2_000),
    ...(typeof reason === 'string' ? { reason } : {}),
  };
}
