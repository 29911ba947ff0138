/**
 * The generated Prisma client (src/generated, git-ignored and so invisible to Nx's dependency
 * scan) loads `@prisma/client/runtime/*` at run time. This import makes the package visible, so the
 * pruned package.json of every service bundle (what the Docker images install) includes it.
 */
export type { Decimal as PrismaDecimal } from '@prisma/client/runtime/client';
