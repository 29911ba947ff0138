import { join } from 'node:path';

/**
 * With BENCH_PROFILE_DIR=<dir>, the environment that makes every platform process a benchmark starts
 * load the profiler (cpu-profile.preload.cjs: Node refuses --cpu-prof in NODE_OPTIONS, so a preloaded
 * inspector session profiles instead); without it, nothing.
 */
export function profilerEnv(): Record<string, string> {
  const profileDir = process.env['BENCH_PROFILE_DIR'];
  return profileDir
    ? {
        NODE_OPTIONS: `--require ${join(__dirname, 'cpu-profile.preload.cjs')}`,
        BENCH_PROFILE_DIR: profileDir,
      }
    : {};
}
