import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The descriptor a worker process inherits its mark file on (after stdin, stdout, stderr, IPC). */
export const MARK_FD = 4;
/** The argument that tells a worker process it has a mark file on `MARK_FD`. */
export const MARK_ARGUMENT = `--quarry-worker-mark-fd=${MARK_FD}`;

/**
 * A file for the marks of a worker process about to start, open for reading and writing. It is
 * created exclusively and unlinked at once: only this descriptor and the one the process inherits
 * (`MARK_FD`) reach it, and nothing is left behind whatever way either process ends.
 */
export function newMarkFile(): number {
  const path = join(tmpdir(), `quarry-worker-${randomUUID()}.mark`);
  const fd = openSync(path, 'wx+', 0o600);
  unlinkSync(path);
  return fd;
}

const markValue = new Float64Array(1);
let marking: boolean | undefined;

/**
 * Records where this worker process is in its work (the page it starts, say). When the process
 * times out or dies, the pool reports the last mark with the error (`WorkerTimeoutError.mark`,
 * `WorkerCrashedError.mark`), so the caller knows which step it was. An 8-byte write to a file and
 * no message: cheap enough for every step of a long call, and it survives a SIGKILL.
 */
export function setWorkerMark(mark: number): void {
  marking ??= process.argv.includes(MARK_ARGUMENT);
  if (!marking) return;
  markValue[0] = mark;
  writeSync(MARK_FD, markValue, 0, 8, 0);
}

/** The last mark written to the file behind `fd`, if any. */
export function readWorkerMark(fd: number): number | undefined {
  try {
    const value = new Float64Array(1);
    return readSync(fd, value, 0, 8, 0) === 8 ? value[0] : undefined;
  } catch {
    return undefined;
  }
}

export function closeWorkerMark(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}
