import { join } from 'node:path';
import type { TestCall } from './testing/test-thread.main';
import {
  WorkerCrashedError,
  WorkerPool,
  WorkerTaskError,
  WorkerTimeoutError,
  type WorkerEvent,
} from './worker-pool';

describe('WorkerPool (real threads)', () => {
  const events: WorkerEvent[] = [];
  let sut: WorkerPool<TestCall>;

  beforeEach(() => {
    events.length = 0;
    sut = new WorkerPool<TestCall>({
      name: 'Test worker',
      entry: { bundle: 'test-thread.js', source: join(__dirname, 'testing/test-thread.main.ts') },
      size: 2,
      memoryMb: 64,
      outOfMemoryMessage: 'The test needed more memory than a test worker may use',
      onEvent: (event) => events.push(event),
    });
  });
  afterEach(() => sut.close());

  it('answers calls and reuses its threads within the size bound', async () => {
    expect(await sut.run({ op: 'echo', value: { a: [1, 'x'] } }, 30_000)).toEqual({ a: [1, 'x'] });
    const threads = await Promise.all(
      Array.from({ length: 6 }, () => sut.run<number>({ op: 'thread' }, 30_000)),
    );
    expect(new Set(threads).size).toBeLessThanOrEqual(2);
    expect(events.filter((event) => event === 'spawned').length).toBeLessThanOrEqual(2);
  });

  it('keeps a thread usable after a call that threw, passing its name, message and reason', async () => {
    const failed = await sut
      .run({ op: 'fail', reason: 'encrypted' }, 30_000)
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(WorkerTaskError);
    expect(failed).toMatchObject({ name: 'RangeError', message: 'asked to fail', reason: 'encrypted' });
    expect(await sut.run({ op: 'echo', value: 1 }, 30_000)).toBe(1);
    expect(events).toEqual(['spawned']);
  });

  it('terminates a call past its budget and serves the next call from a fresh thread', async () => {
    await sut.run({ op: 'echo', value: 0 }, 30_000);
    const slow = await sut.run({ op: 'sleep', ms: 10_000 }, 300).catch((error: unknown) => error);
    expect(slow).toBeInstanceOf(WorkerTimeoutError);
    expect((slow as Error).message).toBe('sleep did not finish within 300 ms');
    expect(await sut.run({ op: 'echo', value: 2 }, 30_000)).toBe(2);
    expect(events).toEqual(['spawned', 'timeout', 'spawned']);
  });

  it('reports a thread that exits or runs out of memory, and replaces it', async () => {
    const exited = await sut.run({ op: 'exit' }, 30_000).catch((error: unknown) => error);
    expect(exited).toBeInstanceOf(WorkerCrashedError);
    expect(exited).toMatchObject({ message: 'Test worker exited with code 3', outOfMemory: false });
    const hog = await sut.run({ op: 'hog' }, 60_000).catch((error: unknown) => error);
    expect(hog).toBeInstanceOf(WorkerCrashedError);
    expect(hog).toMatchObject({
      message: 'The test needed more memory than a test worker may use',
      outOfMemory: true,
    });
    expect(events).toContain('out_of_memory');
    expect(await sut.run({ op: 'echo', value: 3 }, 30_000)).toBe(3);
  });
});
