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
    drop: async () => {
      const client = new Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
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
