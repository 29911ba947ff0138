import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from 'pg';

import { type AppConfig, loadConfig } from '@quarry/platform/config';
import { Database, findMigrationsDir } from '@quarry/platform/database';

/** PostgreSQL started by scripts/infra/postgres.sh (make test exports it). */
export const TEST_DATABASE_URL =
  process.env['TEST_DATABASE_URL'] ?? 'postgresql://quarry:quarry@127.0.0.1:5432/quarry';
/** Kafka started by scripts/infra/kafka.sh. */
export const TEST_KAFKA_BROKERS = (process.env['TEST_KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(',');

export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

export interface TestDatabase {
  url: string;
  name: string;
  /** Opens a migrated Database on it (close it yourself). */
  open(): Promise<Database>;
  drop(): Promise<void>;
}

/** A fresh, migrated PostgreSQL database of its own, so suites run in parallel without sharing state. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = uniqueName('quarry_test');
  const admin = new Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const migrator = await Database.open({ url: url.toString(), poolSize: 2, embeddedDir: '' });
  await migrator.migrate(findMigrationsDir());
  await migrator.close();
  return {
    url: url.toString(),
    name,
    open: () => Database.open({ url: url.toString(), poolSize: 5, embeddedDir: '' }),
    drop: () => dropDatabase(TEST_DATABASE_URL, name),
  };
}

const INSUFFICIENT_PRIVILEGE = '42501';
const OBJECT_IN_USE = '55006';

/**
 * Drops a database the test role created, whoever is still connected. `WITH (FORCE)` terminates
 * the other sessions, but PostgreSQL 15 refuses it to a role that is not a superuser while an
 * autovacuum worker is on the database (the worker belongs to no role, 42501); a plain
 * `DROP DATABASE` cancels autovacuum itself, so that case falls back to it after ending this
 * role's own sessions, and tries again while the database is still in use.
 */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        return;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if ((code !== INSUFFICIENT_PRIVILEGE && code !== OBJECT_IN_USE) || attempt >= 10) throw error;
      }
      await client.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = $1 AND pid <> pg_backend_pid() AND usename = current_user`,
        [name],
      );
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name}`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== OBJECT_IN_USE || attempt >= 10) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  } finally {
    await client.end();
  }
}

/** A migrated database on either engine the platform runs on, and how to get rid of it. */
export interface TestEngineDatabase {
  db: Database;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database on PostgreSQL (a database of its own) or embedded PGlite (a
 * temporary directory), for specs that check SQL on both engines (`describe.each(['postgres', 'pglite'])`).
 */
export async function openTestEngine(engine: 'postgres' | 'pglite'): Promise<TestEngineDatabase> {
  if (engine === 'postgres') {
    const testDb = await createTestDatabase();
    const db = await testDb.open();
    return {
      db,
      close: async () => {
        await db.close();
        await testDb.drop();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'quarry-pglite-'));
  const db = await Database.open({ poolSize: 1, embeddedDir: dir });
  await db.migrate(findMigrationsDir());
  return {
    db,
    close: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An AppConfig for tests: private networks allowed (fixtures live on 127.0.0.1), quiet logs. */
export function testConfig(env: Record<string, string | undefined> = {}): AppConfig {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    ALLOW_PRIVATE_NETWORKS: 'true',
    PORT: '0',
    ...env,
  });
}
