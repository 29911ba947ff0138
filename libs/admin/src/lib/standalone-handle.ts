import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Written by the one-process server so the CLI can reach it instead of opening the embedded database twice. */
export interface StandaloneHandle {
  pid: number;
  url: string;
  token: string;
}

const FILE = 'standalone.json';

export function writeStandaloneHandle(dataDir: string, handle: StandaloneHandle): void {
  writeFileSync(join(dataDir, FILE), JSON.stringify(handle), { mode: 0o600 });
}

export function removeStandaloneHandle(dataDir: string, pid: number): void {
  const handle = readStandaloneHandle(dataDir);
  if (handle?.pid === pid) rmSync(join(dataDir, FILE), { force: true });
}

/** The running server's handle, or undefined when none is running. */
export function readStandaloneHandle(dataDir: string): StandaloneHandle | undefined {
  const path = join(dataDir, FILE);
  if (!existsSync(path)) return undefined;
  try {
    const handle = JSON.parse(readFileSync(path, 'utf8')) as StandaloneHandle;
    process.kill(handle.pid, 0);
    return handle;
  } catch {
    return undefined;
  }
}
