import { spawn } from 'node:child_process';
import { join } from 'node:path';

import type { TestCall } from './testing/test-worker.main';
import {
  residentMemoryMb,
  WorkerCrashedError,
  type WorkerEvent,
  WorkerPool,
  WorkerTaskError,
  WorkerTimeoutError,
} from './worker-pool';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

jest.setTimeout(90_000);

describe('WorkerPool (real child processes)', () => {
  const events: WorkerEvent[] = [];
  let sut: WorkerPool<TestCall>;

  beforeEach(() => {
    events.length = 0;
    sut = new WorkerPool<TestCall>({
      name: 'Test worker',
      entry: { bundle: 'test-worker.js', source: join(__dirname, 'testing/test-worker.main.ts') },
      size: 2,
      memoryMb: 64,
      maxRssMb: 400,
      recycleRssMb: 200,
      data: { answer: 42 },
      outOfMemoryMessage: 'The test needed more memory than a test worker may use',
      onEvent: (event) => events.push(event),
    });
  });
  afterEach(() => sut.close());

  it('answers calls in processes of its own, reused within the size bound, with the pool data', async () => {
    expect(
      await sut.run({ op: 'echo', value: { a: [1, 'x'], bytes: new Uint8Array([1, 2]) } }, 30_000),
    ).toEqual({
      a: [1, 'x'],
      bytes: new Uint8Array([1, 2]),
    });
    expect(await sut.run({ op: 'data' }, 30_000)).toEqual({ answer: 42 });
    const pids = await Promise.all(Array.from({ length: 6 }, () => sut.run<number>({ op: 'pid' }, 30_000)));
    expect(new Set(pids).size).toBeLessThanOrEqual(2);
    expect(pids).not.toContain(process.pid);
    expect(events.filter((event) => event === 'spawned').length).toBeLessThanOrEqual(2);
  });

  it('keeps a process usable after a call that threw, passing its name, message and reason', async () => {
    const failed = await sut
      .run({ op: 'fail', reason: 'encrypted' }, 30_000)
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(WorkerTaskError);
    expect(failed).toMatchObject({ name: 'RangeError', message: 'asked to fail', reason: 'encrypted' });
    const unserializable = await sut.run({ op: 'unserializable' }, 30_000).catch((error: unknown) => error);
    expect(unserializable).toBeInstanceOf(WorkerTaskError);
    expect(await sut.run({ op: 'echo', value: 1 }, 30_000)).toBe(1);
    expect(events).toEqual(['spawned']);
  });

  it('kills a call past its budget and serves the next call from a fresh process', async () => {
    const first = await sut.run<number>({ op: 'pid' }, 30_000);
    const slow = await sut.run({ op: 'sleep', ms: 10_000 }, 300).catch((error: unknown) => error);
    expect(slow).toBeInstanceOf(WorkerTimeoutError);
    expect((slow as Error).message).toBe('sleep did not finish within 300 ms');
    expect(await sut.run({ op: 'echo', value: 2 }, 30_000)).toBe(2);
    expect(events).toEqual(['spawned', 'timeout', 'spawned']);
    expect(alive(first)).toBe(false);
  });

  it('passes interim values to onProgress, whose budget bounds the time until the next one', async () => {
    const worker = await sut.acquire();
    try {
      await worker.call({ op: 'echo', value: 'started' }, 30_000);
      const seen: unknown[] = [];
      // Ten values 100 ms apart: a second in all, well past the 400 ms each value grants.
      const done = await worker.call({ op: 'stream', count: 10, everyMs: 100 }, 400, (value) => {
        seen.push(value);
        return 400;
      });
      expect(done).toBe('streamed');
      expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      // Without a new budget the first one holds; a stall after the last value runs out the one it gave.
      const whole = await worker
        .call({ op: 'stream', count: 10, everyMs: 100 }, 400, () => undefined)
        .catch((error: unknown) => error);
      expect(whole).toBeInstanceOf(WorkerTimeoutError);
    } finally {
      sut.release(worker);
    }
    const fresh = await sut.acquire();
    const stalled = await fresh
      .call({ op: 'echo', value: 'started' }, 30_000)
      .then(() => fresh.call({ op: 'stream', count: 2, everyMs: 50, stallMs: 5_000 }, 400, () => 300))
      .catch((error: unknown) => error)
      .finally(() => sut.release(fresh));
    expect(stalled).toBeInstanceOf(WorkerTimeoutError);
    expect(events.filter((event) => event === 'timeout')).toHaveLength(2);
  });

  it('gives the last mark of a process that timed out or died with its error', async () => {
    const worker = await sut.acquire();
    expect(await worker.call({ op: 'mark', marks: [1, 2.5], then: 'return' }, 30_000)).toBe('marked');
    expect(worker.mark()).toBe(2.5);
    const spun = await worker
      .call({ op: 'mark', marks: [3, 7], then: 'spin' }, 1_000)
      .catch((error: unknown) => error);
    sut.release(worker);
    expect(spun).toBeInstanceOf(WorkerTimeoutError);
    expect(spun).toMatchObject({ mark: 7 });
    const exited = await sut
      .run({ op: 'mark', marks: [12], then: 'exit' }, 30_000)
      .catch((error: unknown) => error);
    expect(exited).toBeInstanceOf(WorkerCrashedError);
    expect(exited).toMatchObject({ mark: 12, outOfMemory: false });
    // A process that never marked has no mark.
    const slow = await sut.run({ op: 'sleep', ms: 10_000 }, 1_000).catch((error: unknown) => error);
    expect(slow).toMatchObject({ mark: undefined });
  });

  it('reports a process that exits or exhausts its heap, and replaces it; the owner survives', async () => {
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
  }, 90_000);

  it('kills a process whose memory outside the heap passes maxRssMb', async () => {
    const hog = await sut.run({ op: 'hogNative', mb: 2_000 }, 60_000).catch((error: unknown) => error);
    expect(hog).toMatchObject({ outOfMemory: true });
    expect(events).toContain('out_of_memory');
    expect(await sut.run({ op: 'echo', value: 4 }, 30_000)).toBe(4);
  }, 90_000);

  it('replaces a process that grew past recycleRssMb once its call is done', async () => {
    const worker = await sut.acquire();
    const pid = worker.pid as number;
    expect(await worker.call({ op: 'grow', mb: 208 }, 30_000)).toBe('grown');
    expect(residentMemoryMb(pid)).toBeGreaterThan(200);
    sut.release(worker);
    expect(events).toContain('recycled');
    expect(await sut.run<number>({ op: 'pid' }, 30_000)).not.toBe(pid);
  }, 60_000);

  it('stops every process on close', async () => {
    await Promise.all([sut.run({ op: 'pid' }, 30_000), sut.run({ op: 'pid' }, 30_000)]);
    const pids = sut.pids();
    expect(pids.length).toBeGreaterThan(0);
    await sut.close();
    expect(pids.filter(alive)).toEqual([]);
  });

  it('dies with its owner, whatever the owner and the worker are doing', async () => {
    const bootstrap = join(__dirname, 'worker-bootstrap.cjs');
    const tsconfig = join(__dirname, '../../../../../tsconfig.base.json');
    const owner = spawn(
      process.execPath,
      [bootstrap, join(__dirname, 'testing/orphan-owner.main.ts'), tsconfig],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const pids = await new Promise<number[]>((resolve, reject) => {
      owner.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()) as number[]));
      owner.once('exit', (code) => reject(new Error(`owner exited early (${code})`)));
    });
    expect(pids).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    owner.kill('SIGKILL');
    const deadline = Date.now() + 5_000;
    while (pids.some(alive) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pids.filter(alive)).toEqual([]);
  }, 60_000);
});
