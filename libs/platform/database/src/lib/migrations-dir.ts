import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Where the SQL migrations are: next to the running bundle (images copy them there), else the
 * repository's prisma/migrations when running from a checkout.
 */
export function findMigrationsDir(explicit?: string): string {
  const candidates = [
    explicit,
    join(__dirname, 'prisma', 'migrations'),
    resolve(process.cwd(), 'prisma', 'migrations'),
    resolve(__dirname, '..', '..', '..', 'prisma', 'migrations'),
  ].filter((candidate): candidate is string => !!candidate);
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`No migrations directory found (looked in ${candidates.join(', ')})`);
  return found;
}
