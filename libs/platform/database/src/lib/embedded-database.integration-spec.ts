import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Database } from './database';
import { findMigrationsDir } from './migrations-dir';

describe('embedded PGlite database (one-process mode)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-pglite-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('migrates once, persists across restarts and refuses edited migrations', async () => {
    const first = await Database.open({ poolSize: 1, embeddedDir: dir });
    const applied = await first.migrate(findMigrationsDir());
    expect(applied.applied.length).toBeGreaterThan(0);
    await first.prisma.team.create({ data: { name: 'persisted' } });
    await first.close();

    const second = await Database.open({ poolSize: 1, embeddedDir: dir });
    const again = await second.migrate(findMigrationsDir());
    expect(again.applied).toEqual([]);
    expect(await second.prisma.team.findUnique({ where: { name: 'persisted' } })).not.toBeNull();
    await second.sql.query('UPDATE "_prisma_migrations" SET checksum = $1', ['tampered']);
    await expect(second.migrate(findMigrationsDir())).rejects.toThrow(/modified after it was applied/);
    await second.close();
  }, 60_000);
});
