#!/usr/bin/env node
// Smoke test of the offline migration tooling (docs/database.md). Works on temporary copies only:
//   node tools/prisma/selftest.mjs
// 1. `check` passes on the repository's schema and migrations;
// 2. a schema copy with an extra column: `check` reports drift, `create-migration` writes a
//    migration that adds exactly that column, after which `check` passes;
// 3. `create-migration` again prints "no changes" and writes nothing;
// 4. a hand-written migration adding objects outside the schema (tsvector column + GIN index declared
//    in the schema, expression index declared with a marker) keeps `check` green.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const cli = path.join(here, 'cli.mjs');

function run(...args) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `$ cli.mjs ${args.map((a) => (a.startsWith(tmp) ? path.relative(tmp, a) || '.' : a)).join(' ')}  -> exit ${r.status} (${seconds} s)`,
  );
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

const tmp = mkdtempSync(path.join(tmpdir(), 'quarry-prisma-selftest-'));
try {
  const schema = path.join(tmp, 'schema.prisma');
  const migrations = path.join(tmp, 'migrations');
  cpSync(path.join(root, 'prisma', 'migrations'), migrations, { recursive: true });
  const original = readFileSync(path.join(root, 'prisma', 'schema.prisma'), 'utf8');
  const opts = ['--schema', schema, '--migrations', migrations];

  // 1. The repository itself is consistent.
  let r = run('check');
  assert.equal(r.code, 0, `check failed on the repository:\n${r.out}`);

  // 2. An extra column.
  const withColumn = original.replace(
    /(model Team \{\n)/,
    '$1  selftestNote       String?  @map("selftest_note")\n',
  );
  assert.notEqual(withColumn, original, 'could not add the column to the schema copy');
  writeFileSync(schema, withColumn);
  r = run('check', ...opts);
  assert.equal(r.code, 1, `check should report drift:\n${r.out}`);
  assert.match(r.out, /ALTER TABLE "teams" ADD COLUMN\s+"selftest_note" TEXT/);

  const before = new Set(readdirSync(migrations));
  r = run('create-migration', 'Selftest note', ...opts);
  assert.equal(r.code, 0, r.out);
  const created = readdirSync(migrations).filter((d) => !before.has(d));
  assert.equal(created.length, 1, `expected one new migration, got ${created.join(', ')}`);
  assert.match(created[0], /^\d{14}_selftest_note$/);
  assert.ok(
    [...before].filter((d) => /^\d{14}_/.test(d)).every((d) => d < created[0]),
    'new migration must sort last',
  );
  const sql = readFileSync(path.join(migrations, created[0], 'migration.sql'), 'utf8');
  assert.match(sql, /^-- AlterTable\nALTER TABLE "teams" ADD COLUMN\s+"selftest_note" TEXT;\s*$/);
  assert.ok(existsSync(path.join(migrations, 'migration_lock.toml')));
  r = run('check', ...opts);
  assert.equal(r.code, 0, `check should pass after create-migration:\n${r.out}`);

  // 3. Nothing left to do.
  r = run('create-migration', 'nothing', ...opts);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /no changes/);
  assert.equal(
    readdirSync(migrations).length,
    before.size + 1,
    'no migration may be written without changes',
  );

  // 4. Hand-written SQL outside what Prisma generates.
  const handDir = path.join(migrations, `${String(BigInt(created[0].slice(0, 14)) + 1n)}_search`);
  mkdirSync(handDir);
  writeFileSync(
    path.join(handDir, 'migration.sql'),
    [
      'ALTER TABLE "documents" ADD COLUMN "search" tsvector;',
      'CREATE INDEX "documents_search_idx" ON "documents" USING GIN ("search");',
      '-- prisma:unmanaged index "jobs_kind_lower_idx"',
      'CREATE INDEX "jobs_kind_lower_idx" ON "jobs" (lower("kind"));',
      '',
    ].join('\n'),
  );
  r = run('check', ...opts);
  assert.equal(r.code, 1, 'the undeclared tsvector column must be reported');
  assert.match(r.out, /DROP COLUMN "search"/);
  assert.doesNotMatch(r.out, /jobs_kind_lower_idx/, 'the marked index must not be reported');
  writeFileSync(
    schema,
    withColumn
      .replace(/(model Document \{\n)/, '$1  search      Unsupported("tsvector")?\n')
      .replace(
        /(\n {2}@@map\("documents"\))/,
        '\n  @@index([search], map: "documents_search_idx", type: Gin)$1',
      ),
  );
  r = run('check', ...opts);
  assert.equal(r.code, 0, `check should accept declared hand-written objects:\n${r.out}`);

  console.log('selftest passed');
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
