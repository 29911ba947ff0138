#!/usr/bin/env node
// Runs the administration CLI from a checkout: the built bundle when present and current, else the
// TypeScript sources through @swc-node/register (path aliases from tsconfig.base.json).
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const args = process.argv.slice(2);
const env = { ...process.env, SWC_NODE_PROJECT: join(root, 'tsconfig.base.json'), NODE_NO_WARNINGS: '1' };
const entry = join(root, 'apps/cli/src/main.ts');
const child = existsSync(entry)
  ? spawnSync(process.execPath, ['-r', '@swc-node/register', entry, ...args], { stdio: 'inherit', env, cwd: root })
  : { status: 1 };
process.exit(child.status ?? 1);
