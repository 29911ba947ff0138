import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A shared dataset directory (one holding `ground-truth/`): `override` if given (an env variable),
 * else `shared/data/<name>` beside the repository or beside any of its parent directories (a git
 * worktree under `wt/` finds the same copy as the main checkout).
 */
export function datasetDir(repoRoot: string, name: string, override?: string): string | undefined {
  if (override) return existsSync(join(override, 'ground-truth')) ? override : undefined;
  for (let dir = repoRoot; ; dir = dirname(dir)) {
    const candidate = join(dirname(dir), 'shared', 'data', name);
    if (existsSync(join(candidate, 'ground-truth'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The repository root: the nearest ancestor of `from` holding `nx.json`. */
export function repoRootOf(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'nx.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** Every fifth page (index 4, 9, …) of a dataset is held out: tuning looks at the rest, reports show both. */
export function isHeldOut(index: number): boolean {
  return index % 5 === 4;
}
