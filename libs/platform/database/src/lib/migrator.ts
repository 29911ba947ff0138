import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { SqlExecutor } from './sql-executor';

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationResult {
  applied: string[];
  alreadyApplied: number;
}

/** Arbitrary constant for pg_advisory_xact_lock: serialises migrators of concurrently starting replicas. */
const MIGRATION_LOCK_KEY = 72_410_913;

export function readMigrations(dir: string): MigrationFile[] {
  if (!existsSync(dir)) throw new Error(`Migrations directory not found: ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/**
 * Applies pending migrations in order, each in its own transaction, recording them in Prisma's
 * `_prisma_migrations` table layout. Refuses to run when an applied migration was edited.
 */
export async function applyMigrations(
  db: SqlExecutor,
  migrations: MigrationFile[],
): Promise<MigrationResult> {
  await db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`);
  const applied: string[] = [];
  let alreadyApplied = 0;
  for (const migration of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const rows = await tx.query<{ checksum: string }>(
        'SELECT checksum FROM "_prisma_migrations" WHERE migration_name = $1 AND finished_at IS NOT NULL AND rolled_back_at IS NULL',
        [migration.name],
      );
      if (rows.length > 0) {
        if (rows[0].checksum !== migration.checksum) {
          throw new Error(
            `Migration ${migration.name} was modified after it was applied (checksum mismatch)`,
          );
        }
        return false;
      }
      await tx.exec(migration.sql);
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`,
        [randomUUID(), migration.checksum, migration.name],
      );
      return true;
    });
    if (done) applied.push(migration.name);
    else alreadyApplied += 1;
  }
  return { applied, alreadyApplied };
}
