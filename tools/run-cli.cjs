#!/usr/bin/env node
// `npm run cli -- <command>`: runs the administration CLI from a checkout, always from the TypeScript
// sources through @swc-node/register (path aliases from tsconfig.base.json), so it needs no build and
// never runs a stale bundle. Its exit status is the CLI's; stdout is the CLI's alone (use
// `npm run --silent` so npm adds no banner), e.g. the new key on the last line of `keys create`.
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const args = process.argv.slice(2);
const env = { ...process.env, SWC_NODE_PROJECT: join(root, 'tsconfig.base.json'), NODE_NO_WARNINGS: '1' };
const entry = join(root, 'apps/cli/src/main.ts');
const child = existsSync(entry)
  ? spawnSync(process.execPath, ['-r', '@swc-node/register', entry, ...args], {
      stdio: 'inherit',
      env,
      cwd: root,
    })
  : { status: 1 };
process.exit(child.status ?? 1);
