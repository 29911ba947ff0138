export * from './lib/database';
export * from './lib/database.module';
export * from './lib/database-errors';
export * from './lib/migrator';
export * from './lib/migrations-dir';
export * from './lib/raw-row.util';
export type { SqlExecutor } from './lib/sql-executor';
export { Prisma, PrismaClient } from './generated/prisma/client';
export type * from './generated/prisma/client';
