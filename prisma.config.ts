// Prisma CLI configuration. Only `prisma generate` is used from the CLI: migrations are created and
// applied offline by tools/prisma (see docs/database.md).
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
