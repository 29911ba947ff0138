#!/usr/bin/env node
// Offline Prisma workflow for this repository (docs/database.md is the reference):
//
//   node tools/prisma/cli.mjs generate [prisma generate args...]      npm run db:generate
//   node tools/prisma/cli.mjs create-migration <name> [--empty]       npm run db:migration -- <name>
//   node tools/prisma/cli.mjs check                                   npm run db:check
//   node tools/prisma/cli.mjs verify [--pg <admin-url>]               applies the migrations for real
//   node tools/prisma/cli.mjs introspect                              schema as the migrations produce it
//
// Common options: --schema <schema.prisma>  --migrations <migrations dir>

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  applyAndCompare,
  checkDrift,
  computeMigration,
  DEFAULT_MIGRATIONS,
  DEFAULT_SCHEMA,
  engineVersion,
  introspectMigrations,
  LOCKFILE_CONTENT,
  LOCKFILE_NAME,
  readMigrations,
  REPO_ROOT,
} from './engine.mjs';

const require = createRequire(import.meta.url);
const SELF = fileURLToPath(import.meta.url);

function parseArgs(argv) {
  const options = { schema: DEFAULT_SCHEMA, migrations: DEFAULT_MIGRATIONS, pg: undefined, empty: false };
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const take = () => {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      return value;
    };
    if (arg === '--schema') options.schema = path.resolve(take());
    else if (arg === '--migrations') options.migrations = path.resolve(take());
    else if (arg === '--pg') options.pg = take();
    else if (arg === '--empty') options.empty = true;
    else positional.push(arg);
  }
  return { options, positional };
}

const rel = (p) => path.relative(process.cwd(), p) || '.';

function timestamp(date = new Date()) {
  const pad = (n) => String(n).padStart(2, '0');
  return (
    `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}` +
    `${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}`
  );
}

/** Next migration directory name; always sorts after every existing one. */
function nextDirectoryName(name, existing) {
  let ts = timestamp();
  const last = existing.at(-1)?.name.slice(0, 14);
  if (last && ts <= last) ts = String(BigInt(last) + 1n);
  return `${ts}_${name}`;
}

function normaliseName(raw) {
  const name = String(raw ?? '')
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 200);
  if (!name)
    throw new Error('Usage: create-migration <name>   (e.g. npm run db:migration -- add_document_language)');
  return name;
}

async function createMigration(options, rawName) {
  const name = normaliseName(rawName);
  const started = Date.now();
  const script = await computeMigration({
    schemaPath: options.schema,
    migrationsDir: options.migrations,
    name,
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (!script && !options.empty) {
    console.log(
      `no changes: ${rel(options.migrations)} already matches ${rel(options.schema)} (${seconds} s)`,
    );
    return 0;
  }
  const existing = readMigrations(options.migrations);
  const dirName = nextDirectoryName(name, existing);
  const dir = path.join(options.migrations, dirName);
  mkdirSync(dir, { recursive: true });
  // --empty with no schema change: a migration for hand-written SQL only (docs/database.md).
  writeFileSync(
    path.join(dir, 'migration.sql'),
    script ?? '-- Hand-written migration: see docs/database.md.\n',
  );
  const lockfile = path.join(options.migrations, LOCKFILE_NAME);
  if (!existsSync(lockfile)) writeFileSync(lockfile, LOCKFILE_CONTENT);
  console.log(`created ${rel(path.join(dir, 'migration.sql'))} (${seconds} s)`);
  console.log(
    'Review it, append hand-written SQL if needed (see docs/database.md), then commit it with the schema change.',
  );
  return 0;
}

async function check(options) {
  const started = Date.now();
  const drift = await checkDrift({ schemaPath: options.schema, migrationsDir: options.migrations });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const count = readMigrations(options.migrations).length;
  if (!drift) {
    console.log(
      `ok: ${rel(options.schema)} matches ${count} migration(s) in ${rel(options.migrations)} (${seconds} s)`,
    );
    return 0;
  }
  console.error(
    `drift: ${rel(options.schema)} and the ${count} migration(s) in ${rel(options.migrations)} disagree (${seconds} s).\n` +
      'Replaying the migrations and then running this SQL would give the schema:\n\n' +
      `${drift.sql.trim()}\n\n` +
      'Fix: `npm run db:migration -- <name>` for a schema change, or declare objects created by hand-written SQL (docs/database.md).',
  );
  return 1;
}

function generate(args) {
  const cli = require.resolve('prisma/build/index.js');
  const result = spawnSync(process.execPath, [cli, 'generate', ...args], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    env: {
      ...process.env,
      // `prisma generate` never runs the schema engine, but the CLI insists on finding (or else
      // downloading from binaries.prisma.sh) a native schema-engine binary first. Any existing
      // file satisfies the check: point it at this script.
      PRISMA_SCHEMA_ENGINE_BINARY: SELF,
      CHECKPOINT_DISABLE: '1',
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
    },
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

/** Creates a throwaway database next to the one in `adminUrl`, runs `fn(url)`, drops it. */
async function withThrowawayDatabase(adminUrl, fn) {
  const pg = require('pg');
  const name = `quarry_migrate_verify_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    try {
      return await fn(url.toString());
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}

async function verify(options) {
  const adminUrl = options.pg ?? process.env.PRISMA_VERIFY_PG_URL;
  const common = { schemaPath: options.schema, migrationsDir: options.migrations };
  const started = Date.now();
  const result = adminUrl
    ? await withThrowawayDatabase(adminUrl, (postgresUrl) => applyAndCompare({ ...common, postgresUrl }))
    : await applyAndCompare(common);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  let failed = false;
  if (result.drift) {
    failed = true;
    console.error(
      `PGlite: applied ${result.applied.length} migration(s), but the database differs from ${rel(options.schema)}:\n${result.drift}`,
    );
  } else {
    console.log(
      `PGlite: applied ${result.applied.length} migration(s); the database matches ${rel(options.schema)}`,
    );
  }
  if (result.postgres) {
    const { applied, objects, differences, version } = result.postgres;
    if (differences.length) {
      failed = true;
      console.error(
        `PostgreSQL ${version}: applied ${applied.length} migration(s), but the result differs from PGlite:\n${differences.join('\n')}`,
      );
    } else {
      console.log(
        `PostgreSQL ${version}: applied ${applied.length} migration(s) in a throwaway database; its ${objects} catalog entries equal PGlite's`,
      );
    }
  } else {
    console.log(
      'PostgreSQL: skipped (pass --pg postgres://user:password@host:port/db of a role that may CREATE DATABASE, or set PRISMA_VERIFY_PG_URL)',
    );
  }
  console.log(`(${seconds} s)`);
  return failed ? 1 : 0;
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'generate') return generate(rest);
  const { options, positional } = parseArgs(rest);
  switch (command) {
    case 'create-migration':
      return createMigration(options, positional[0]);
    case 'check':
      return check(options);
    case 'verify':
      return verify(options);
    case 'introspect': {
      const { files, warnings } = await introspectMigrations({
        schemaPath: options.schema,
        migrationsDir: options.migrations,
      });
      for (const file of files)
        process.stdout.write(files.length > 1 ? `// ${rel(file.path)}\n${file.content}` : file.content);
      if (warnings) console.error(warnings);
      return 0;
    }
    case 'version':
      console.log(`@prisma/schema-engine-wasm ${await engineVersion()}`);
      return 0;
    default:
      console.error(
        'Usage: node tools/prisma/cli.mjs <generate|create-migration <name> [--empty]|check|verify [--pg <url>]|introspect|version> [--schema <file>] [--migrations <dir>]',
      );
      return 2;
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`error: ${error.message}`);
    process.exit(1);
  },
);
