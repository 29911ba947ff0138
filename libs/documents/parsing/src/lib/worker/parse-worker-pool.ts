import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { WorkerFailure, WorkerRequest, WorkerResponse, WorkerSettings } from './worker-protocol';

export interface ParseWorkerPoolOptions {
  /** Threads at most (one per document being parsed). */
  size: number;
  /** V8 heap limit of each thread, in MiB: a file that needs more kills only its thread. */
  memoryMb: number;
  settings: WorkerSettings;
  onEvent?: (event: 'spawned' | 'timeout' | 'crashed' | 'out_of_memory', detail?: string) => void;
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
  constructor(failure: WorkerFailure) {
    super(failure.message);
    this.name = failure.name;
    this.reason = failure.reason;
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type WorkerCall = DistributiveOmit<WorkerRequest, 'id'>;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** One parse thread with request/response correlation, call timeouts and crash detection. */
export class ParseWorker {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private deadReason?: Error;
  private readonly exited: Promise<void>;

  constructor(
    private readonly worker: Worker,
    private readonly onEvent: ParseWorkerPoolOptions['onEvent'],
  ) {
    worker.on('message', (response: WorkerResponse) => {
      const entry = this.pending.get(response.id);
      if (!entry) return;
      this.pending.delete(response.id);
      clearTimeout(entry.timer);
      if (response.ok) entry.resolve(response.value);
      else entry.reject(new WorkerTaskError(response.error));
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.onEvent?.(outOfMemory ? 'out_of_memory' : 'crashed', error.message);
      this.die(
        new WorkerCrashedError(
          outOfMemory
            ? 'The document needed more memory than a parse worker may use'
            : `Parse worker crashed: ${error.message}`,
          outOfMemory,
        ),
      );
    });
    this.exited = new Promise((resolve) =>
      worker.once('exit', (code) => {
        this.die(new WorkerCrashedError(`Parse worker exited with code ${code}`, false));
        resolve();
      }),
    );
  }

  get alive(): boolean {
    return !this.deadReason;
  }

  call<T>(request: WorkerCall, timeoutMs: number): Promise<T> {
    if (this.deadReason) return Promise.reject(this.deadReason);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.onEvent?.('timeout', request.op);
        reject(new WorkerTimeoutError(request.op, timeoutMs));
        void this.terminate();
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.worker.postMessage({ ...request, id });
    });
  }

  async terminate(): Promise<void> {
    this.die(new WorkerCrashedError('Parse worker was terminated', false));
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
 * A bounded set of parse threads reused across documents. A thread that timed out or crashed is
 * replaced; callers hold a thread exclusively between acquire and release.
 */
export class ParseWorkerPool {
  private readonly idle: ParseWorker[] = [];
  private readonly waiters: ((worker: ParseWorker | undefined) => void)[] = [];
  private busy = 0;
  private closed = false;

  constructor(private readonly options: ParseWorkerPoolOptions) {}

  /** Starts one thread and loads pdf.js in it, so the first document does not pay for it. */
  async warm(timeoutMs = 60_000): Promise<void> {
    const worker = await this.acquire();
    try {
      await worker.call({ op: 'ping' }, timeoutMs);
    } finally {
      this.release(worker);
    }
  }

  async acquire(): Promise<ParseWorker> {
    if (this.closed) throw new Error('parse worker pool is closed');
    while (this.idle.length > 0) {
      const worker = this.idle.pop() as ParseWorker;
      if (worker.alive) {
        this.busy += 1;
        return worker;
      }
    }
    if (this.busy < this.options.size) {
      this.busy += 1;
      return this.spawn();
    }
    const handed = await new Promise<ParseWorker | undefined>((resolve) => this.waiters.push(resolve));
    if (!handed) throw new Error('parse worker pool is closed');
    return handed.alive ? handed : this.spawn();
  }

  /** Returns a thread; a dead one frees its slot for a fresh thread. */
  release(worker: ParseWorker): void {
    const waiter = this.waiters.shift();
    if (waiter) {
      waiter(worker);
      return;
    }
    this.busy -= 1;
    if (worker.alive && !this.closed) this.idle.push(worker);
  }

  /** Replaces a thread that is stuck or broken, keeping the caller's slot. */
  async replace(worker: ParseWorker): Promise<ParseWorker> {
    await worker.terminate();
    return this.spawn();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter(undefined);
    await Promise.all(this.idle.splice(0).map((worker) => worker.terminate()));
  }

  private spawn(): ParseWorker {
    const entry = workerEntry();
    const worker = new Worker(entry.filename, {
      workerData: { ...entry.data, settings: this.options.settings },
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
    return new ParseWorker(worker, this.options.onEvent);
  }
}

/**
 * The thread's script: the bundle's `parse-worker.js` next to the running `main.js`, else the
 * TypeScript sources through @swc-node/register (tests and runs from a checkout).
 */
function workerEntry(): { filename: string; data: Record<string, string> } {
  const bundled = join(__dirname, 'parse-worker.js');
  if (existsSync(bundled)) return { filename: bundled, data: {} };
  const source = join(__dirname, 'parse-worker.main.ts');
  if (!existsSync(source))
    throw new Error(`parse worker script not found (looked for ${bundled} and ${source})`);
  return {
    filename: join(__dirname, 'worker-bootstrap.cjs'),
    data: { register: '@swc-node/register', entry: source, project: findTsconfig(__dirname) },
  };
}

function findTsconfig(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'tsconfig.base.json');
    if (existsSync(candidate)) return candidate;
  }
  return '';
}
