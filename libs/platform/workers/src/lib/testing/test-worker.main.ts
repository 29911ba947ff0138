import { serveWorker, workerData } from '../serve-worker';
import { setWorkerMark } from '../worker-mark';

/** A worker for the pool's tests: echoes, sleeps, fails, exits or exhausts its memory on request. */
export type TestCall =
  | { op: 'echo'; value: unknown }
  | { op: 'pid' }
  | { op: 'data' }
  | { op: 'sleep'; ms: number }
  | { op: 'stream'; count: number; everyMs: number; stallMs?: number }
  | { op: 'fail'; reason?: string }
  | { op: 'exit' }
  | { op: 'hog' }
  | { op: 'hogNative'; mb: number }
  | { op: 'grow'; mb: number }
  | { op: 'unserializable' }
  | { op: 'spin' }
  | { op: 'mark'; marks: number[]; then: 'spin' | 'exit' | 'return' };

const hoard: unknown[] = [];

serveWorker<TestCall>(async (call, progress) => {
  switch (call.op) {
    case 'echo':
      return call.value;
    case 'pid':
      return process.pid;
    case 'data':
      return workerData();
    case 'sleep':
      await new Promise((resolve) => setTimeout(resolve, call.ms));
      return 'slept';
    case 'stream':
      for (let index = 0; index < call.count; index += 1) {
        await new Promise((resolve) => setTimeout(resolve, call.everyMs));
        progress(index);
      }
      if (call.stallMs) await new Promise((resolve) => setTimeout(resolve, call.stallMs));
      return 'streamed';
    case 'fail':
      throw Object.assign(new RangeError('asked to fail'), { reason: call.reason });
    case 'exit':
      process.exit(3);
      break;
    case 'hog':
      for (;;) hoard.push(new Array(1_000_000).fill(hoard.length));
    case 'hogNative':
      // Buffers live outside the V8 heap: only the resident-memory watchdog sees them.
      for (let i = 0; i < call.mb; i += 16) {
        hoard.push(Buffer.alloc(16 * 2 ** 20, 1));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      return 'survived';
    case 'grow':
      for (let i = 0; i < call.mb; i += 16) hoard.push(Buffer.alloc(16 * 2 ** 20, 1));
      return 'grown';
    case 'spin':
      for (;;) hoard.length = 0;
    case 'mark':
      for (const value of call.marks) setWorkerMark(value);
      if (call.then === 'exit') process.exit(4);
      if (call.then === 'spin') for (;;) hoard.length = 0;
      return 'marked';
    case 'unserializable':
      return () => 'functions do not cross processes';
  }
  return undefined;
});
