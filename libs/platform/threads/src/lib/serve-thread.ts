import { parentPort } from 'node:worker_threads';
import type { ThreadCall, ThreadResponse } from './thread-protocol';

/**
 * The thread side of a worker pool: answers each call with `handle`'s value, or with the error it
 * threw (name, message, `reason`), so one failing call leaves the thread usable. `transfer` names
 * buffers of a value to move rather than copy.
 */
export function serveThread<C extends ThreadCall>(
  handle: (call: C) => unknown,
  transfer: (value: unknown) => ArrayBuffer[] = () => [],
): void {
  parentPort?.on('message', (message: C & { id: number }) => {
    Promise.resolve()
      .then(() => handle(message))
      .then(
        (value) =>
          parentPort?.postMessage(
            { id: message.id, ok: true, value } satisfies ThreadResponse,
            transfer(value),
          ),
        (error: unknown) => {
          const failure = error instanceof Error ? error : new Error(String(error));
          const reason = (failure as { reason?: unknown }).reason;
          parentPort?.postMessage({
            id: message.id,
            ok: false,
            error: {
              name: failure.name,
              message: failure.message.slice(0, 2_000),
              ...(typeof reason === 'string' ? { reason } : {}),
            },
          } satisfies ThreadResponse);
        },
      );
  });
}
