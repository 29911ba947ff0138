import { join } from 'node:path';

import { WorkerPool } from '../worker-pool';
import type { TestCall } from './test-worker.main';

/**
 * An owner process for the "workers die with their owner" test: starts two workers, one stuck in a
 * synchronous loop and one waiting on a timer, prints their process ids, then waits to be killed.
 */
const pool = new WorkerPool<TestCall>({
  name: 'Orphan test worker',
  entry: { bundle: 'test-worker.js', source: join(__dirname, 'test-worker.main.ts') },
  size: 2,
  memoryMb: 64,
});
void (async () => {
  const spinning = await pool.acquire();
  const sleeping = await pool.acquire();
  await Promise.all([
    spinning.call({ op: 'echo', value: 0 }, 30_000),
    sleeping.call({ op: 'echo', value: 0 }, 30_000),
  ]);
  void spinning.call({ op: 'spin' }, 600_000).catch(() => undefined);
  void sleeping.call({ op: 'sleep', ms: 600_000 }, 600_000).catch(() => undefined);
  process.stdout.write(`${JSON.stringify(pool.pids())}\n`);
})();
