import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Database } from './database';

/** PostgreSQL started by scripts/infra/postgres.sh (make test exports it). */
const POSTGRES_URL = process.env['TEST_DATABASE_URL'] ?? 'postgresql://quarry:quarry@127.0.0.1:5432/quarry';

const SUM = 'SELECT $1::int + $2::int AS total';

describe('prepared hot-path statements (prepareAs)', () => {
  it('PostgreSQL prepares a named statement once per connection and runs it with new values', async () => {
    const db = await Database.open({ url: POSTGRES_URL, poolSize: 1, embeddedDir: '' });
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
      // Through the pool (the same single connection), the prepared statement is reused.
      expect(await db.sql.query(SUM, [5, 6], { prepareAs: 'executor_spec_sum' })).toEqual([{ total: 11 }]);
      // A failing run of a prepared statement fails only that call.
      await expect(db.sql.query(SUM, ['x', 1], { prepareAs: 'executor_spec_sum' })).rejects.toThrow(
        /integer/,
      );
      expect(await db.sql.query(SUM, [1, 1], { prepareAs: 'executor_spec_sum' })).toEqual([{ total: 2 }]);
    } finally {
      await db.close();
    }
  }, 60_000);

  it('the embedded engine runs the same statement unprepared', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-pglite-'));
    const db = await Database.open({ poolSize: 1, embeddedDir: dir });
    try {
      expect(await db.sql.query(SUM, [1, 2], { prepareAs: 'executor_spec_sum' })).toEqual([{ total: 3 }]);
      expect(await db.sql.query(SUM, [40, 2], { prepareAs: 'executor_spec_sum' })).toEqual([{ total: 42 }]);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
