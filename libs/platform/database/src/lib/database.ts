import { mkdirSync } from 'node:fs';

import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool, type PoolClient } from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';

import { PrismaClient } from '../generated/prisma/client';
import { applyMigrations, type MigrationResult, readMigrations } from './migrator';
import type { SqlExecutor } from './sql-executor';

export interface DatabaseOptions {
  /** PostgreSQL URL; when absent an embedded PGlite database in `embeddedDir` is used. */
  url?: string;
  poolSize: number;
  embeddedDir: string;
  /** Called with connection errors of idle pool clients (a restarting server), which must not crash the process. */
  onBackgroundError?: (error: Error) => void;
}

/** The process's database: a Prisma client for repositories and a raw executor for the few statements Prisma cannot express. */
export class Database {
  private constructor(
    readonly prisma: PrismaClient,
    readonly sql: SqlExecutor,
    readonly kind: 'postgres' | 'pglite',
    private readonly closeDriver: () => Promise<void>,
  ) {}

  static async open(options: DatabaseOptions): Promise<Database> {
    if (options.url) {
      const pool = new Pool({
        connectionString: options.url,
        max: options.poolSize,
        connectionTimeoutMillis: 5_000,
        idleTimeoutMillis: 30_000,
        keepAlive: true,
      });
      pool.on('error', (error) => options.onBackgroundError?.(error));
      const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
      return new Database(prisma, poolExecutor(pool), 'postgres', async () => {
        await prisma.$disconnect();
        await pool.end();
      });
    }
    mkdirSync(options.embeddedDir, { recursive: true });
    const pglite = await PGlite.create(options.embeddedDir);
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
    return new Database(prisma, pgliteExecutor(pglite), 'pglite', async () => {
      await prisma.$disconnect();
      await pglite.close();
    });
  }

  async migrate(migrationsDir: string): Promise<MigrationResult> {
    return applyMigrations(this.sql, readMigrations(migrationsDir));
  }

  async ping(): Promise<void> {
    await this.sql.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.closeDriver();
  }
}

function clientExecutor(client: Pick<PoolClient, 'query'>): SqlExecutor {
  const executor: SqlExecutor = {
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await client.query(sql, params as unknown[]);
      return result.rows as Row[];
    },
    async exec(script: string) {
      await client.query(script);
    },
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      return work(executor); // already inside the caller's transaction
    },
  };
  return executor;
}

function poolExecutor(pool: Pool): SqlExecutor {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await pool.query(sql, params as unknown[]);
      return result.rows as Row[];
    },
    async exec(script: string) {
      await pool.query(script);
    },
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(clientExecutor(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

function pgliteExecutor(db: PGlite): SqlExecutor {
  type Queryable = Pick<PGlite, 'query' | 'exec'>;
  const wrap = (target: Queryable, transaction: SqlExecutor['transaction']): SqlExecutor => ({
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await target.query<Row>(sql, params as unknown[]);
      return result.rows;
    },
    async exec(script: string) {
      await target.exec(script);
    },
    transaction,
  });
  const root: SqlExecutor = wrap(db, (work) =>
    db.transaction(async (tx) => {
      const inner: SqlExecutor = wrap(tx, (nested) => nested(inner));
      return work(inner);
    }),
  );
  return root;
}
