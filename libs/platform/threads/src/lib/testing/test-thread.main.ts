import { threadId } from 'node:worker_threads';
import { serveThread } from '../serve-thread';

/** A thread for the pool's tests: echoes, sleeps, fails, exits or exhausts its heap on request. */
export type TestCall =
  | { op: 'echo'; value: unknown }
  | { op: 'thread' }
  | { op: 'sleep'; ms: number }
  | { op: 'fail'; reason?: string }
  | { op: 'exit' }
  | { op: 'hog' };

const hoard: unknown[] = [];

serveThread<TestCall>(async (call) => {
  switch (call.op) {
    case 'echo':
      return call.value;
    case 'thread':
      return threadId;
    case 'sleep':
      await new Promise((resolve) => setTimeout(resolve, call.ms));
      return 'slept';
    case 'fail':
      throw Object.assign(new RangeError('asked to fail'), { reason: call.reason });
    case 'exit':
      process.exit(3);
      break;
    case 'hog':
      for (;;) hoard.push(new Array(1_000_000).fill(hoard.length));
  }
  return undefined;
});
