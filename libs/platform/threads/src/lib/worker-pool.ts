import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ThreadCall, ThreadFailure, ThreadResponse } from './thread-protocol';

export type WorkerEvent = 'spawned' | 'timeout' | 'crashed' | 'out_of_memory';

/**
 * Where a thread's script is: `bundle`, the file name of its webpack entry next to the running
 * bundle's `main.js`; `source`, the absolute path of its TypeScript (or JavaScript) entry, used when
 * no bundle exists (tests, runs from a checkout).
 */
export interface WorkerEntry {
  bundle: string;
  source: string;
}

export interface WorkerPoolOptions {
  /** Names the threads in errors ("Parse worker", "Content worker"). */
  name: string;
  entry: WorkerEntry;
  /** Threads at most. */
  size: number;
  /** V8 heap limit of each thread, in MiB: work that needs more kills only its thread. */
  memoryMb: number;
  /** `workerData` of every thread. */
  data?: Record<string, unknown>;
  /** The error message when a call ran the thread out of memory. */
  outOfMemoryMessage?: string;
  onEvent?: (event: WorkerEvent, detail?: string) => void;
}

/** A worker call that ran past its time budget; the thread was terminated. */
export class WorkerTimeoutError extends Error {
  constructor(op: string, timeoutMs: number) {
    super(`${op} did not finish within ${timeoutMs} ms`);
    this.name = 'WorkerTimeoutError';
  }
}

/** The thread died (out of memory, native crash) while a call was running. */
export class WorkerCrashedError extends Error {
  constructor(
    message: string,
    readonly outOfMemory: boolean,
  ) {
    super(message);
    this.name = 'WorkerCrashedError';
  }
}

/** The call failed inside the thread with an ordinary error (the thread is still usable). */
export class WorkerTaskError extends Error {
  readonly reason?: string;
  constructor(failure: ThreadFailure) {
    super(failure.message);
    this.name = failure.name;
    this.reason = failure.reason;
  }
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** One thread with request/response correlation, call timeouts and crash detection. */
export class WorkerThread<C extends ThreadCall> {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private deadReason?: Error;
  private readonly exited: Promise<void>;

  constructor(
    private readonly worker: Worker,
    private readonly options: Pick<WorkerPoolOptions, 'name' | 'outOfMemoryMessage' | 'onEvent'>,
  ) {
    worker.on('message', (response: ThreadResponse) => {
      const entry = this.pending.get(response.id);
      if (!entry) return;
      this.pending.delete(response.id);
      clearTimeout(entry.timer);
      if (response.ok) entry.resolve(response.value);
      else entry.reject(new WorkerTaskError(response.error));
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.options.onEvent?.(outOfMemory ? 'out_of_memory' : 'crashed', error.message);
      this.die(
        new WorkerCrashedError(
          outOfMemory
            ? (this.options.outOfMemoryMessage ?? `${this.options.name} ran out of memory`)
            : `${this.options.name} crashed: ${error.message}`,
          outOfMemory,
        ),
      );
    });
    this.exited = new Promise((resolve) =>
      worker.once('exit', (code) => {
        this.die(new WorkerCrashedError(`${this.options.name} exited with code ${code}`, false));
        resolve();
      }),
    );
  }

  get alive(): boolean {
    return !this.deadReason;
  }

  call<T>(request: C, timeoutMs: number, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.deadReason) return Promise.reject(this.deadReason);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.options.onEvent?.('timeout', request.op);
        reject(new WorkerTimeoutError(request.op, timeoutMs));
        void this.terminate();
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.worker.postMessage({ ...request, id }, transfer);
    });
  }

  async terminate(): Promise<void> {
    this.die(new WorkerCrashedError(`${this.options.name} was terminated`, false));
    await this.worker.terminate().catch(() => undefined);
    await this.exited;
  }

  private die(reason: Error): void {
    if (!this.deadReason) this.deadReason = reason;
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(reason);
      this.pending.delete(id);
    }
  }
}

/**
 * A bounded set of threads reused across calls. Callers hold a thread exclusively between acquire
 * and release (or use `run`); a thread that timed out or crashed is replaced by a fresh one.
 */
export class WorkerPool<C extends ThreadCall> {
  private readonly idle: WorkerThread<C>[] = [];
  private readonly waiters: ((worker: WorkerThread<C> | undefined) => void)[] = [];
  private busy = 0;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {}

  get size(): number {
    return this.options.size;
  }

  /** Calls `call` on a thread of its own; the thread is released whatever happens. */
  async run<T>(call: C, timeoutMs: number, transfer?: ArrayBuffer[]): Promise<T> {
    const worker = await this.acquire();
    try {
      return await worker.call<T>(call, timeoutMs, transfer);
    } finally {
      this.release(worker);
    }
  }

  async acquire(): Promise<WorkerThread<C>> {
    if (this.closed) throw new Error(`${this.options.name} pool is closed`);
    while (this.idle.length > 0) {
      const worker = this.idle.pop() as WorkerThread<C>;
      if (worker.alive) {
        this.busy += 1;
        return worker;
      }
    }
    if (this.busy < this.options.size) {
      this.busy += 1;
      return this.spawn();
    }
    const handed = await new Promise<WorkerThread<C> | undefined>((resolve) => this.waiters.push(resolve));
    if (!handed) throw new Error(`${this.options.name} pool is closed`);
    return handed.alive ? handed : this.spawn();
  }

  /** Returns a thread; a dead one frees its slot for a fresh thread. */
  release(worker: WorkerThread<C>): void {
    const waiter = this.waiters.shift();
    if (waiter) {
      waiter(worker);
      return;
    }
    this.busy -= 1;
    if (worker.alive && !this.closed) this.idle.push(worker);
  }

  /** Replaces a thread that is stuck or broken, keeping the caller's slot. */
  async replace(worker: WorkerThread<C>): Promise<WorkerThread<C>> {
    await worker.terminate();
    return this.spawn();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter(undefined);
    await Promise.all(this.idle.splice(0).map((worker) => worker.terminate()));
  }

  private spawn(): WorkerThread<C> {
    const entry = resolveEntry(this.options.entry);
    const worker = new Worker(entry.filename, {
      workerData: { ...entry.data, ...this.options.data },
      resourceLimits: {
        maxOldGenerationSizeMb: this.options.memoryMb,
        maxYoungGenerationSizeMb: 48,
        stackSizeMb: 8,
      },
      stdout: false,
      stderr: false,
    });
    worker.unref();
    this.options.onEvent?.('spawned');
    return new WorkerThread<C>(worker, this.options);
  }
}

/**
 * The thread's script: the bundle's entry next to the running `main.js`, else the source entry —
 * TypeScript through @swc-node/register (the bootstrap beside this file), JavaScript directly.
 */
function resolveEntry(entry: WorkerEntry): { filename: string; data: Record<string, string> } {
  const bundled = join(__dirname, entry.bundle);
  if (existsSync(bundled)) return { filename: bundled, data: {} };
  if (!existsSync(entry.source))
    throw new Error(`worker script not found (looked for ${bundled} and ${entry.source})`);
  if (!entry.source.endsWith('.ts')) return { filename: entry.source, data: {} };
  return {
    filename: join(__dirname, 'thread-bootstrap.cjs'),
    data: { register: '@swc-node/register', entry: entry.source, project: findTsconfig(entry.source) },
  };
}

function findTsconfig(from: string): string {
  for (let dir = dirname(from); dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'tsconfig.base.json');
    if (existsSync(candidate)) return candidate;
  }
  return '';
}
