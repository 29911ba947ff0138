import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { closeWorkerMark, MARK_ARGUMENT, newMarkFile, readWorkerMark } from './worker-mark';
import type { WorkerCall, WorkerFailure, WorkerResponse } from './worker-protocol';

export type WorkerEvent = 'spawned' | 'timeout' | 'crashed' | 'out_of_memory' | 'recycled';

/**
 * Where a worker's script is: `bundle`, the file name of its webpack entry next to the running
 * bundle's `main.js`; `source`, the absolute path of its TypeScript (or JavaScript) entry, used when
 * no bundle exists (tests, runs from a checkout).
 */
export interface WorkerEntry {
  bundle: string;
  source: string;
}

export interface WorkerPoolOptions {
  /** Names the workers in errors ("Parse worker", "Content worker"). */
  name: string;
  entry: WorkerEntry;
  /** Worker processes at most. */
  size: number;
  /** V8 heap limit of each process (`--max-old-space-size`), in MiB. */
  memoryMb: number;
  /**
   * Resident memory (MiB) at which a busy process is killed: what the heap limit does not see
   * (buffers, native allocations). Default: twice the heap limit plus 256 MiB.
   */
  maxRssMb?: number;
  /**
   * Resident memory (MiB) after which an idle process is replaced rather than reused, so a heap
   * that grew for one large input is returned to the system. Default: the heap limit.
   */
  recycleRssMb?: number;
  /** Settings of every worker, read there with `workerData()`. */
  data?: Record<string, unknown>;
  /** The error message when a call ran the worker out of memory. */
  outOfMemoryMessage?: string;
  onEvent?: (event: WorkerEvent, detail?: string) => void;
}

/** A worker call that ran past its time budget; the process was killed. */
export class WorkerTimeoutError extends Error {
  constructor(
    op: string,
    timeoutMs: number,
    /** The worker's last `setWorkerMark()` value when it was stopped. */
    readonly mark?: number,
  ) {
    super(`${op} did not finish within ${timeoutMs} ms`);
    this.name = 'WorkerTimeoutError';
  }
}

/** The worker process died (out of memory, native crash, killed) while a call was running. */
export class WorkerCrashedError extends Error {
  constructor(
    message: string,
    readonly outOfMemory: boolean,
    /** The worker's last `setWorkerMark()` value when it died. */
    readonly mark?: number,
  ) {
    super(message);
    this.name = 'WorkerCrashedError';
  }
}

/** The call failed inside the worker with an ordinary error (the process is still usable). */
export class WorkerTaskError extends Error {
  readonly reason?: string;
  constructor(failure: WorkerFailure) {
    super(failure.message);
    this.name = failure.name;
    this.reason = failure.reason;
  }
}

/**
 * Called with each interim value of a call; a number returned is the call's new time budget, counted
 * from now (so a call streaming its results is bounded per result, not as a whole).
 */
export type ProgressHandler = (value: unknown) => number | undefined | void;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  onProgress?: ProgressHandler;
  /** Restarts the call's timer with a new budget. */
  rearm: (timeoutMs: number) => void;
}

const STDERR_TAIL_BYTES = 8_192;
const RSS_POLL_MS = 200;
const OUT_OF_MEMORY = /heap out of memory|Allocation failed|Reached heap limit|std::bad_alloc/i;

/**
 * One worker process with request/response correlation, call timeouts, a resident-memory watchdog
 * and crash detection. Whatever the process does — exhausts its heap, aborts, loops — only this
 * process dies; the caller gets a WorkerCrashedError or WorkerTimeoutError.
 */
export class WorkerProcess<C extends WorkerCall> {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private deadReason?: Error;
  private stderrTail = '';
  private overMemory = false;
  private watchdog?: NodeJS.Timeout;
  private readonly exited: Promise<void>;

  constructor(
    private readonly child: ChildProcess,
    private readonly options: Pick<WorkerPoolOptions, 'name' | 'outOfMemoryMessage' | 'onEvent'> & {
      maxRssMb: number;
      /** The file the process writes its marks to (`setWorkerMark`). */
      markFd?: number;
    },
  ) {
    child.on('message', (response: WorkerResponse) => {
      const entry = this.pending.get(response.id);
      if (!entry) return;
      if ('progress' in response) {
        let budget: number | undefined | void;
        try {
          budget = entry.onProgress?.(response.progress);
        } catch (error) {
          // The caller cannot go on; nobody waits for the rest of the call, so the process goes too.
          this.fail(response.id, error instanceof Error ? error : new Error(String(error)));
          void this.terminate();
          return;
        }
        if (typeof budget === 'number' && this.pending.has(response.id)) entry.rearm(budget);
        return;
      }
      this.pending.delete(response.id);
      clearTimeout(entry.timer);
      if (this.pending.size === 0) this.stopWatchdog();
      if (response.ok) entry.resolve(response.value);
      else entry.reject(new WorkerTaskError(response.error));
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    // Spawn failures and IPC errors end in 'exit' too, or never start: treat both as a crash.
    child.on('error', (error) =>
      this.die(new WorkerCrashedError(`${options.name} failed: ${error.message}`, false)),
    );
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.stopWatchdog();
        const outOfMemory = this.overMemory || OUT_OF_MEMORY.test(this.stderrTail);
        if (!this.deadReason)
          this.options.onEvent?.(outOfMemory ? 'out_of_memory' : 'crashed', this.exitDetail(code, signal));
        const mark = this.mark();
        if (options.markFd !== undefined) closeWorkerMark(options.markFd);
        this.die(
          outOfMemory
            ? new WorkerCrashedError(
                this.options.outOfMemoryMessage ?? `${this.options.name} ran out of memory`,
                true,
                mark,
              )
            : new WorkerCrashedError(`${this.options.name} ${this.exitDetail(code, signal)}`, false, mark),
        );
        resolve();
      }),
    );
  }

  get alive(): boolean {
    return !this.deadReason;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The process's last `setWorkerMark()` value. */
  mark(): number | undefined {
    return this.options.markFd === undefined ? undefined : readWorkerMark(this.options.markFd);
  }

  /** Resident memory of the process in MiB (Linux /proc), or undefined where it cannot be read. */
  residentMb(): number | undefined {
    return residentMemoryMb(this.child.pid);
  }

  /**
   * Runs one call: its answer, or a WorkerTimeoutError (the process is killed) when it takes longer
   * than `timeoutMs`. `onProgress` receives the call's interim values and may give it a new budget.
   */
  call<T>(request: C, timeoutMs: number, onProgress?: ProgressHandler): Promise<T> {
    if (this.deadReason) return Promise.reject(this.deadReason);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const arm = (budgetMs: number) =>
        setTimeout(() => {
          this.pending.delete(id);
          this.options.onEvent?.('timeout', request.op);
          reject(new WorkerTimeoutError(request.op, budgetMs, this.mark()));
          void this.terminate();
        }, budgetMs);
      const entry: Pending = {
        resolve: resolve as (value: unknown) => void,
        reject,
        timer: arm(timeoutMs),
        onProgress,
        rearm: (budgetMs) => {
          clearTimeout(entry.timer);
          entry.timer = arm(budgetMs);
        },
      };
      this.pending.set(id, entry);
      this.startWatchdog();
      try {
        this.child.send({ ...request, id }, (error) => {
          if (error)
            this.fail(
              id,
              new WorkerCrashedError(`${this.options.name} did not take the call: ${error.message}`, false),
            );
        });
      } catch (error) {
        // e.g. a value the serializer cannot carry: the process is fine, the call is not.
        this.fail(id, error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  async terminate(): Promise<void> {
    this.die(new WorkerCrashedError(`${this.options.name} was stopped`, false));
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }

  private fail(id: number, error: Error): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    entry.reject(error);
  }

  private startWatchdog(): void {
    if (this.watchdog) return;
    this.watchdog = setInterval(() => {
      const rss = this.residentMb();
      if (rss !== undefined && rss > this.options.maxRssMb && !this.overMemory) {
        this.overMemory = true;
        this.child.kill('SIGKILL');
      }
    }, RSS_POLL_MS);
    this.watchdog.unref();
  }

  private stopWatchdog(): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = undefined;
  }

  private exitDetail(code: number | null, signal: NodeJS.Signals | null): string {
    return signal ? `was killed by ${signal}` : `exited with code ${code}`;
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
 * A bounded set of supervised worker processes reused across calls. Callers hold a process
 * exclusively between acquire and release (or use `run`); a process that timed out, crashed or grew
 * past `recycleRssMb` is replaced by a fresh one. Each process has its own heap limit, and exits
 * with its parent, so nothing a call does can take down the process that owns the pool.
 */
export class WorkerPool<C extends WorkerCall> {
  private readonly idle: WorkerProcess<C>[] = [];
  private readonly waiters: ((worker: WorkerProcess<C> | undefined) => void)[] = [];
  private readonly all = new Set<WorkerProcess<C>>();
  private busy = 0;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {}

  get size(): number {
    return this.options.size;
  }

  /** Calls `call` on a process of its own; the process is released whatever happens. */
  async run<T>(call: C, timeoutMs: number): Promise<T> {
    const worker = await this.acquire();
    try {
      return await worker.call<T>(call, timeoutMs);
    } finally {
      this.release(worker);
    }
  }

  async acquire(): Promise<WorkerProcess<C>> {
    if (this.closed) throw new Error(`${this.options.name} pool is closed`);
    while (this.idle.length > 0) {
      const worker = this.idle.pop() as WorkerProcess<C>;
      if (worker.alive) {
        this.busy += 1;
        return worker;
      }
    }
    if (this.busy < this.options.size) {
      this.busy += 1;
      return this.spawn();
    }
    const handed = await new Promise<WorkerProcess<C> | undefined>((resolve) => this.waiters.push(resolve));
    if (!handed) throw new Error(`${this.options.name} pool is closed`);
    return handed.alive ? handed : this.spawn();
  }

  /** Returns a process; a dead or bloated one frees its slot for a fresh process. */
  release(worker: WorkerProcess<C>): void {
    if (worker.alive && this.bloated(worker)) {
      this.options.onEvent?.('recycled', `${worker.residentMb()} MiB resident`);
      void worker.terminate();
    }
    const waiter = this.waiters.shift();
    if (waiter) {
      waiter(worker);
      return;
    }
    this.busy -= 1;
    if (worker.alive && !this.closed) this.idle.push(worker);
  }

  /** Replaces a process that is stuck or broken, keeping the caller's slot. */
  async replace(worker: WorkerProcess<C>): Promise<WorkerProcess<C>> {
    await worker.terminate();
    return this.spawn();
  }

  /** Process ids of the live workers (tests, diagnostics). */
  pids(): number[] {
    return [...this.all].filter((worker) => worker.alive && worker.pid).map((worker) => worker.pid as number);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter(undefined);
    this.idle.splice(0);
    await Promise.all([...this.all].map((worker) => worker.terminate()));
  }

  private bloated(worker: WorkerProcess<C>): boolean {
    const rss = worker.residentMb();
    return rss !== undefined && rss > (this.options.recycleRssMb ?? this.options.memoryMb);
  }

  private spawn(): WorkerProcess<C> {
    const entry = resolveEntry(this.options.entry);
    // The worker's data is its last argument (workerData()); the environment is inherited. Its mark
    // file is its descriptor 4.
    const markFd = newMarkFile();
    let child: ChildProcess;
    try {
      child = fork(entry.filename, [...entry.args, MARK_ARGUMENT, JSON.stringify(this.options.data ?? {})], {
        execArgv: [`--max-old-space-size=${this.options.memoryMb}`, '--stack-size=4000'],
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'pipe', 'ipc', markFd],
      });
    } catch (error) {
      closeWorkerMark(markFd);
      throw error;
    }
    // Neither the process nor its channel keeps the owner alive; a call's timer does while it runs.
    child.unref();
    child.channel?.unref();
    (child.stderr as (NodeJS.ReadableStream & { unref?: () => void }) | null)?.unref?.();
    const worker = new WorkerProcess<C>(child, {
      ...this.options,
      maxRssMb: this.options.maxRssMb ?? this.options.memoryMb * 2 + 256,
      markFd,
    });
    this.all.add(worker);
    child.once('exit', () => this.all.delete(worker));
    this.options.onEvent?.('spawned');
    return worker;
  }
}

/** Resident set size of a process in MiB from /proc (Linux); undefined elsewhere or once it exited. */
export function residentMemoryMb(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return Number.isFinite(pages) ? Math.round((pages * 4_096) / 2 ** 20) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The worker's script: the bundle's entry next to the running `main.js`, else the source entry —
 * TypeScript through the bootstrap beside this file (@swc-node/register with the workspace's path
 * aliases), JavaScript directly.
 */
function resolveEntry(entry: WorkerEntry): { filename: string; args: string[] } {
  const bundled = join(__dirname, entry.bundle);
  if (existsSync(bundled)) return { filename: bundled, args: [] };
  if (!existsSync(entry.source))
    throw new Error(`worker script not found (looked for ${bundled} and ${entry.source})`);
  if (!entry.source.endsWith('.ts')) return { filename: entry.source, args: [] };
  return {
    filename: join(__dirname, 'worker-bootstrap.cjs'),
    args: [entry.source, findTsconfig(entry.source)],
  };
}

function findTsconfig(from: string): string {
  for (let dir = dirname(from); dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'tsconfig.base.json');
    if (existsSync(candidate)) return candidate;
  }
  return '';
}
