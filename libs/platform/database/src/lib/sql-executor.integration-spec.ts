import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Database } from './database';

/** PostgreSQL started by scripts/infra/postgres.sh (make test exports it). */
const POSTGRES_URL = process.env['TEST_DATABASE_URL'] ?? 'postgresql://quarry:quarry@127.0.0.1:5432/quarry';

const SUM = 'SELECT $1::int + $2::int AS total';

type Engine = 'PostgreSQL' | 'PGlite';

async function open(engine: Engine): Promise<{ db: Database; cleanup: () => Promise<void> }> {
  if (engine === 'PostgreSQL') {
    const db = await Database.open({ url: POSTGRES_URL, poolSize: 1, embeddedDir: '' });
    return { db, cleanup: () => db.close() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'quarry-pglite-'));
  const db = await Database.open({ poolSize: 1, embeddedDir: dir });
  return {
    db,
    cleanup: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.each<Engine>(['PostgreSQL', 'PGlite'])(
  'prepared hot-path statements (prepareAs) on %s',
  (engine) => {
    it('prepares a named statement once per session and runs it with new values', async () => {
      const { db, cleanup } = await open(engine);
      try {
        const prepared = await db.sql.transaction(async (tx) => {
          const first = await tx.query<{ total: number }>(SUM, [1, 2], { prepareAs: 'executor_spec_sum' });
          const second = await tx.query<{ total: number }>(SUM, [40, 2], { prepareAs: 'executor_spec_sum' });
          await tx.query('SELECT 1 AS plain');
          const statements = await tx.query<{ name: string; statement: string }>(
            'SELECT name, statement FROM pg_prepared_statements ORDER BY name',
          );
          return { totals: [first[0].total, second[0].total], statements };
        });
        expect(prepared.totals).toEqual([3, 42]);
        // One statement of that name on the session, with the SQL text; the plain query prepared nothing.
        expect(prepared.statements).toEqual([{ name: 'executor_spec_sum', statement: SUM }]);
        // Outside a transaction (the same single session), the prepared statement is reused.
        expect(await db.sql.query(SUM, [5, 6], { prepareAs: 'executor_spec_sum' })).toEqual([{ total: 11 }]);
        // A failing run of a prepared statement fails only that call.
        await expect(db.sql.query(SUM, ['x', 1], { prepareAs: 'executor_spec_sum' })).rejects.toThrow(
          /integer/,
        );
        expect(await db.sql.query(SUM, [1, 1], { prepareAs: 'executor_spec_sum' })).toEqual([{ total: 2 }]);
        expect(await db.sql.query<{ plain: number }>('SELECT 2 AS plain')).toEqual([{ plain: 2 }]);
        // A statement that cannot be prepared (its Parse fails) fails that call only, and is not remembered.
        await expect(
          db.sql.query('SELEC $1::int', [1], { prepareAs: 'executor_spec_broken' }),
        ).rejects.toThrow(/syntax/);
        await expect(
          db.sql.query('SELECT $1::int AS one', [1], { prepareAs: 'executor_spec_broken' }),
        ).resolves.toEqual([{ one: 1 }]);
        expect(await db.sql.query(SUM, [2, 2], { prepareAs: 'executor_spec_sum' })).toEqual([{ total: 4 }]);
      } finally {
        await cleanup();
      }
    }, 60_000);

    it('returns the same values prepared as unprepared, for every type the hot statements use', async () => {
      const { db, cleanup } = await open(engine);
      const typed = `SELECT $1::uuid AS id, $2::text AS label, $3::int AS n, $4::bigint AS big, $5::boolean AS flag,
        $6::timestamptz AS at, $7::jsonb AS doc, $8::uuid[] AS ids, $9::text[] AS labels, $10::int[] AS counts,
        $11::timestamptz[] AS times, $12::text AS missing, (SELECT count(*) FROM json_to_recordset($13::json)
        AS r(a int)) AS rows`;
      const params = [
        'b7e4f1a2-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
        'quote " comma , brace { backslash \\ unicode é',
        42,
        '9007199254740993',
        true,
        new Date('2026-12-03T08:00:00.123Z'),
        JSON.stringify({ nested: { list: [1, 'two', null] } }),
        ['b7e4f1a2-3c4d-4e5f-8a9b-0c1d2e3f4a5b', '00000000-0000-4000-8000-000000000000'],
        ['a', 'b "quoted"', null, ''],
        [1, 2, 3],
        [new Date('2026-01-01T00:00:00Z'), null],
        null,
        JSON.stringify([{ a: 1 }, { a: 2 }]),
      ];
      try {
        const plain = await db.sql.query(typed, params);
        const prepared = await db.sql.query(typed, params, { prepareAs: 'executor_spec_typed' });
        const again = await db.sql.query(typed, params, { prepareAs: 'executor_spec_typed' });
        expect(prepared).toEqual(plain);
        expect(again).toEqual(plain);
        const [row] = prepared as Record<string, unknown>[];
        expect(row['label']).toBe(params[1]);
        expect(row['labels']).toEqual(['a', 'b "quoted"', null, '']);
        expect(row['doc']).toEqual({ nested: { list: [1, 'two', null] } });
        expect(new Date(row['at'] as Date).toISOString()).toBe('2026-12-03T08:00:00.123Z');
        expect(row['missing']).toBeNull();
      } finally {
        await cleanup();
      }
    }, 60_000);

    it('a named statement never runs inside another caller’s open transaction', async () => {
      const { db, cleanup } = await open(engine);
      const table = `executor_spec_${engine.toLowerCase()}_${process.pid}`;
      const count = `SELECT count(*)::int AS n FROM ${table}`;
      try {
        await db.sql.exec(`DROP TABLE IF EXISTS ${table}; CREATE TABLE ${table} (id int)`);
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let inserted!: () => void;
        const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
        const writer = db.sql.transaction(async (tx) => {
          await tx.query(`INSERT INTO ${table} VALUES (1)`);
          inserted();
          await held;
          throw new Error('rolled back');
        });
        await insertedYet;
        // PGlite has one session: run in the writer's transaction, this would count its uncommitted row.
        const reader = db.sql.query<{ n: number }>(count, [], { prepareAs: `${table}_count` });
        setTimeout(release, 50);
        await expect(writer).rejects.toThrow('rolled back');
        expect(await reader).toEqual([{ n: 0 }]);
        expect(await db.sql.query<{ n: number }>(count, [], { prepareAs: `${table}_count` })).toEqual([
          { n: 0 },
        ]);
      } finally {
        await db.sql.exec(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
        await cleanup();
      }
    }, 60_000);
  },
);
