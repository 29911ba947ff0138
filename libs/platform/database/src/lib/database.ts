import { mkdirSync } from 'node:fs';

import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool, type PoolClient, type QueryConfig } from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';

import { PrismaClient } from '../generated/prisma/client';
import { applyMigrations, type MigrationResult, readMigrations } from './migrator';
import { PglitePreparedStatements } from './pglite-prepared';
import type { QueryOptions, SqlExecutor } from './sql-executor';

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
    /**
     * For writes whose commit need not wait for the disk (`synchronous_commit = off` on PostgreSQL; on
     * PGlite, whose fsync is off anyway, the same executor as `sql`): a database crash may lose their
     * last fraction of a second, and a later commit of the same session or any other that waits for
     * its flush makes them durable too (the WAL is one sequence). Only for records that are worthless
     * without a later durable write: a queued job and its claim, whose outcome commits durably.
     */
    readonly relaxedSql: SqlExecutor = sql,
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
      // A few connections of their own, opened on first use, whose commits return before the WAL flush.
      let relaxed: Pool | undefined;
      const relaxedPool = () => {
        if (!relaxed) {
          relaxed = new Pool({
            connectionString: options.url,
            max: Math.max(1, Math.min(4, Math.ceil(options.poolSize / 4))),
            connectionTimeoutMillis: 5_000,
            idleTimeoutMillis: 30_000,
            keepAlive: true,
            options: '-c synchronous_commit=off',
          });
          relaxed.on('error', (error) => options.onBackgroundError?.(error));
        }
        return relaxed;
      };
      const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
      return new Database(
        prisma,
        poolExecutor(() => pool),
        'postgres',
        async () => {
          await prisma.$disconnect();
          await pool.end();
          await relaxed?.end();
        },
        poolExecutor(relaxedPool),
      );
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

/** The driver's statement: named (prepared once per connection) when the caller asks for it. */
function statement(sql: string, params: readonly unknown[], options?: QueryOptions): QueryConfig {
  return options?.prepareAs
    ? { name: options.prepareAs, text: sql, values: params as unknown[] }
    : { text: sql, values: params as unknown[] };
}

function clientExecutor(client: Pick<PoolClient, 'query'>): SqlExecutor {
  const executor: SqlExecutor = {
    async query<Row>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) {
      const result = await client.query(statement(sql, params, options));
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

function poolExecutor(poolOf: () => Pool): SqlExecutor {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) {
      const result = await poolOf().query(statement(sql, params, options));
      return result.rows as Row[];
    },
    async exec(script: string) {
      await poolOf().query(script);
    },
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const client = await poolOf().connect();
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
  const prepared = new PglitePreparedStatements(db);
  // `named` runs a prepared statement: `runAlone` outside a transaction, `run` inside one (the lock is held).
  const wrap = (
    target: Queryable,
    transaction: SqlExecutor['transaction'],
    named: PglitePreparedStatements['run'],
  ): SqlExecutor => ({
    async query<Row>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) {
      if (options?.prepareAs) return named<Row>(options.prepareAs, sql, params);
      const result = await target.query<Row>(sql, params as unknown[]);
      return result.rows;
    },
    async exec(script: string) {
      await target.exec(script);
    },
    transaction,
  });
  const root: SqlExecutor = wrap(
    db,
    (work) =>
      db.transaction(async (tx) => {
        const inner: SqlExecutor = wrap(tx, (nested) => nested(inner), prepared.run);
        return work(inner);
      }),
    prepared.runAlone,
  );
  return root;
}
