// Offline Prisma migration tooling: the official Prisma schema engine compiled to WebAssembly
// (@prisma/schema-engine-wasm), driven through a Prisma driver adapter. The shadow database is an
// in-memory PGlite, so no server, no native engine binary and no network are needed.
// Developer tooling only: nothing here is loaded by the platform at runtime. See docs/database.md.
//
// The commands live here; the engine and its databases in schema-engine.mjs, the migrations
// directory in migrations.mjs.

import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';

import {
  DEFAULT_MIGRATIONS,
  DEFAULT_SCHEMA,
  filtersFor,
  migrationsList,
  readMigrations,
  readSchema,
  REPO_ROOT,
  unmanagedCleanupSql,
  unmanagedObjects,
} from './migrations.mjs';
import {
  createPGlite,
  extensionsUsed,
  openEngine,
  PGliteFactory,
  ScriptAwareAdapter,
} from './schema-engine.mjs';

export {
  DEFAULT_MIGRATIONS,
  DEFAULT_SCHEMA,
  LOCKFILE_CONTENT,
  LOCKFILE_NAME,
  readMigrations,
  readSchema,
  REPO_ROOT,
  unmanagedObjects,
} from './migrations.mjs';
export { createPGlite, engineVersion, extensionsUsed } from './schema-engine.mjs';

const require = createRequire(import.meta.url);

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

const EMPTY_MIGRATION = /^\s*--\s*This is an empty migration\.\s*$/;

/**
 * SQL taking the database produced by replaying `migrationsDir` to `schemaPath`, rendered exactly
 * as `prisma migrate dev --create-only` writes it (including its data-loss warnings).
 * Returns null when there is nothing to do.
 */
export async function computeMigration({
  schemaPath = DEFAULT_SCHEMA,
  migrationsDir = DEFAULT_MIGRATIONS,
  name = 'migration',
}) {
  const migrations = readMigrations(migrationsDir);
  const schemaFiles = readSchema(schemaPath);
  const list = migrationsList(migrationsDir, migrations, { forDiff: true });
  const filters = filtersFor(migrations);
  const factory = new PGliteFactory(extensionsUsed(migrations), { separateShadow: true });
  const engine = await openEngine(factory, schemaFiles);
  try {
    // The same sequence as `prisma migrate dev --create-only` on an empty development database:
    // apply the history to the (throwaway, in-memory) dev database, run devDiagnostic, which
    // replays that history into the shadow database and caches the resulting schema, then
    // createMigration, which diffs the cached schema against the Prisma schema. (The wasm engine
    // can only reach a shadow database through a cached replay in createMigration.)
    await engine.call('applyMigrations', { migrationsList: list, filters });
    const diagnostic = await engine.call('devDiagnostic', { migrationsList: list, filters });
    if (diagnostic.action.tag !== 'createMigration') {
      throw new Error(`Unexpected migration history state: ${JSON.stringify(diagnostic.action)}`);
    }
    const out = await engine.call('createMigration', {
      draft: true,
      migrationName: name,
      migrationsList: list,
      schema: { files: schemaFiles },
      filters,
    });
    const script = out.migrationScript ?? '';
    return EMPTY_MIGRATION.test(script) || script.trim() === '' ? null : script;
  } finally {
    await engine.close();
  }
}

/**
 * Drift between the migrations and the schema: `{ sql }` with the statements that would still be
 * needed, or null when they agree.
 */
export async function checkDrift({ schemaPath = DEFAULT_SCHEMA, migrationsDir = DEFAULT_MIGRATIONS } = {}) {
  const migrations = readMigrations(migrationsDir);
  const schemaFiles = readSchema(schemaPath);
  const list = migrationsList(migrationsDir, migrations, { forDiff: true });
  const engine = await openEngine(new PGliteFactory(extensionsUsed(migrations)), schemaFiles);
  try {
    const result = await engine.call('diff', {
      from: { tag: 'migrations', ...list },
      to: { tag: 'schemaDatamodel', files: schemaFiles },
      script: true,
      exitCode: true,
      filters: filtersFor(migrations),
    });
    if (result.exitCode === 0) return null;
    return { sql: result.stdout ?? '' };
  } finally {
    await engine.close();
  }
}

/** Minimal SQL access to the database a check applies the migrations to. */
async function openTarget(target, migrations) {
  if (target === 'pglite') {
    const db = await createPGlite(extensionsUsed(migrations));
    return {
      label: 'PGlite',
      db,
      exec: (sql) => db.exec(sql),
      query: async (sql, params) => (await db.query(sql, params)).rows,
      transaction: (work) =>
        db.transaction((tx) => work({ exec: (sql) => tx.exec(sql), query: (sql, p) => tx.query(sql, p) })),
      close: () => db.close(),
    };
  }
  const pg = require('pg');
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  return {
    label: 'PostgreSQL',
    exec: (sql) => client.query(sql),
    query: async (sql, params) => (await client.query(sql, params)).rows,
    transaction: async (work) => {
      await client.query('BEGIN');
      try {
        const result = await work({
          exec: (sql) => client.query(sql),
          query: (sql, p) => client.query(sql, p),
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    close: () => client.end(),
  };
}

/**
 * Applies the migration files the way the platform's runtime migrator does: in lexical order, each
 * file in its own transaction, recorded in `_prisma_migrations` (Prisma's column layout).
 */
async function applyLikeRuntime(target, migrations) {
  await target.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
  const applied = [];
  for (const m of migrations) {
    try {
      await target.transaction(async (tx) => {
        await tx.exec(m.sql);
        await tx.query(
          'INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)',
          [randomUUID(), m.checksum, m.name],
        );
      });
    } catch (error) {
      throw new Error(`Migration ${m.name} failed on ${target.label}: ${error.message}`);
    }
    applied.push(m.name);
  }
  return applied;
}

/**
 * A normalised description of every user object (tables, columns, defaults, constraints, indexes,
 * sequences, enums, views, functions, triggers, extensions), for comparing two databases built
 * from the same migrations.
 */
async function catalogSnapshot(target) {
  const userNs = `n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND n.nspname NOT LIKE 'pg\\_%'`;
  const sections = {
    columns: `SELECT n.nspname || '.' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
        || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
        || COALESCE(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '')
        || CASE a.attgenerated WHEN 's' THEN ' STORED' ELSE '' END
        || CASE a.attidentity WHEN '' THEN '' ELSE ' IDENTITY ' || a.attidentity::text END AS line
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND a.attnum > 0 AND NOT a.attisdropped AND ${userNs}
      ORDER BY 1`,
    // contype 'n': PostgreSQL 18 (PGlite) also records NOT NULL as constraints; columns cover it.
    constraints: `SELECT n.nspname || '.' || c.relname || ' ' || co.conname || ' ' || pg_get_constraintdef(co.oid) AS line
      FROM pg_constraint co JOIN pg_class c ON c.oid = co.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE co.contype <> 'n' AND ${userNs} ORDER BY 1`,
    indexes: `SELECT schemaname || ' ' || indexdef AS line FROM pg_indexes WHERE ${userNs.replaceAll('n.nspname', 'schemaname')} ORDER BY 1`,
    sequences: `SELECT n.nspname || '.' || c.relname AS line FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'S' AND ${userNs} ORDER BY 1`,
    enums: `SELECT n.nspname || '.' || t.typname || ' ' || string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS line
      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE ${userNs} GROUP BY n.nspname, t.typname ORDER BY 1`,
    // Names only: PostgreSQL 16+ deparses view bodies differently (no table qualification); their
    // columns are compared in `columns`.
    views: `SELECT n.nspname || '.' || c.relname || ' ' || c.relkind::text AS line FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('v', 'm') AND ${userNs} ORDER BY 1`,
    functions: `SELECT n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' AS line
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      LEFT JOIN pg_depend dep ON dep.objid = p.oid AND dep.deptype = 'e'
      WHERE dep.objid IS NULL AND ${userNs} ORDER BY 1`,
    triggers: `SELECT pg_get_triggerdef(t.oid) AS line FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace WHERE NOT t.tgisinternal AND ${userNs} ORDER BY 1`,
    extensions: `SELECT extname AS line FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY 1`,
  };
  const snapshot = [];
  for (const [section, sql] of Object.entries(sections)) {
    for (const row of await target.query(sql)) snapshot.push(`${section}: ${row.line}`);
  }
  return snapshot;
}

/**
 * Applies the migrations like the runtime does to a fresh in-memory PGlite, introspects the result
 * with the schema engine and diffs it against the Prisma schema. With `postgresUrl` (an empty
 * throwaway database), applies them there too and compares its catalog with PGlite's.
 * Returns `{ applied, drift, postgres?: { applied, differences } }`.
 */
export async function applyAndCompare({
  schemaPath = DEFAULT_SCHEMA,
  migrationsDir = DEFAULT_MIGRATIONS,
  postgresUrl,
}) {
  const migrations = readMigrations(migrationsDir);
  const schemaFiles = readSchema(schemaPath);
  const lite = await openTarget('pglite', migrations);
  try {
    const applied = await applyLikeRuntime(lite, migrations);
    const result = { applied, drift: null };
    if (postgresUrl) {
      const pg = await openTarget(postgresUrl, migrations);
      try {
        const [{ server_version: version }] = await pg.query('SHOW server_version');
        const pgApplied = await applyLikeRuntime(pg, migrations);
        const [a, b] = [await catalogSnapshot(lite), await catalogSnapshot(pg)];
        const onlyLite = a.filter((line) => !b.includes(line)).map((line) => `- PGlite only:     ${line}`);
        const onlyPg = b.filter((line) => !a.includes(line)).map((line) => `+ PostgreSQL only: ${line}`);
        result.postgres = {
          version,
          applied: pgApplied,
          objects: b.length,
          differences: [...onlyLite, ...onlyPg],
        };
      } finally {
        await pg.close();
      }
    }
    // Unmanaged objects are outside the schema by declaration: drop them before comparing.
    const cleanup = unmanagedCleanupSql(unmanagedObjects(migrations));
    if (cleanup) await lite.exec(cleanup);
    const engine = await openEngine(singlePGliteFactory(lite.db), schemaFiles);
    try {
      const diff = await engine.call('diff', {
        from: { tag: 'schemaDatasource', files: schemaFiles, configDir: REPO_ROOT },
        to: { tag: 'schemaDatamodel', files: schemaFiles },
        script: true,
        exitCode: true,
        filters: filtersFor(migrations),
      });
      result.drift = diff.exitCode === 0 ? null : (diff.stdout ?? '');
    } finally {
      await engine.close();
    }
    return result;
  } finally {
    await lite.close();
  }
}

/** Adapter factory over one existing PGlite database (no shadow database). */
function singlePGliteFactory(db) {
  return {
    provider: 'postgres',
    adapterName: '@quarry/tools-prisma-pglite',
    async connect() {
      const { PrismaPGlite } = await import('pglite-prisma-adapter');
      return new ScriptAwareAdapter(await new PrismaPGlite(db).connect(), (script) => db.exec(script));
    },
    connectToShadowDb() {
      throw new Error('no shadow database available here');
    },
    close: async () => undefined,
  };
}

/**
 * The Prisma schema as introspected from the database the migrations produce (on PGlite), merged
 * with the current schema the way `prisma db pull` does. Used to find how to declare
 * hand-written objects (e.g. the exact dbgenerated() text of a generated column).
 */
export async function introspectMigrations({
  schemaPath = DEFAULT_SCHEMA,
  migrationsDir = DEFAULT_MIGRATIONS,
}) {
  const migrations = readMigrations(migrationsDir);
  const schemaFiles = readSchema(schemaPath);
  const lite = await openTarget('pglite', migrations);
  try {
    await applyLikeRuntime(lite, migrations);
    const engine = await openEngine(singlePGliteFactory(lite.db), schemaFiles);
    try {
      const result = await engine.call('introspect', {
        schema: { files: schemaFiles },
        baseDirectoryPath: path.dirname(schemaFiles[0].path),
        force: false,
        compositeTypeDepth: -1,
        namespaces: null,
      });
      return { files: result.schema.files, warnings: result.warnings };
    } finally {
      await engine.close();
    }
  } finally {
    await lite.close();
  }
}
