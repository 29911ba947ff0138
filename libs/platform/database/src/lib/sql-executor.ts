/** Minimal raw SQL access used where Prisma cannot help: migrations and a few hot-path statements. */
export interface SqlExecutor {
  /** Runs one parameterised statement and returns its rows. */
  query<Row = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<Row[]>;
  /** Runs a script of several statements without parameters. */
  exec(script: string): Promise<void>;
  /** Runs `work` on one connection inside a transaction. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}

export interface QueryOptions {
  /**
   * A statement run very often on a hot path: PostgreSQL parses and plans it once per connection,
   * as a prepared statement of this name, instead of on every run. One name per SQL text. On the
   * embedded engine (PGlite) too, through PGlite's protocol API while holding PGlite's transaction
   * lock (`PglitePreparedStatements`); planning was up to half of a statement's cost there.
   */
  prepareAs?: string;
}
