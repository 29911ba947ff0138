/** Minimal raw SQL access used where Prisma cannot help: migrations and a few hot-path statements. */
export interface SqlExecutor {
  /** Runs one parameterised statement and returns its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of several statements without parameters. */
  exec(script: string): Promise<void>;
  /** Runs `work` on one connection inside a transaction. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}
