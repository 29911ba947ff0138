#!/usr/bin/env node
// Creates an Nx library skeleton that follows the workspace conventions and registers its path alias.
// Usage: node tools/scaffold-lib.mjs <dir under libs/> <@quarry/alias> <type:tag> <scope:tag>
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const [dir, alias, typeTag, scopeTag] = process.argv.slice(2);
if (!dir || !alias || !typeTag?.startsWith('type:') || !scopeTag?.startsWith('scope:')) {
  console.error('usage: scaffold-lib.mjs <dir> <@quarry/alias> <type:x> <scope:y>');
  process.exit(2);
}
const root = join('libs', dir);
const up = relative(root, '.') || '.';
const name = dir.replace(/\//g, '-');
mkdirSync(join(root, 'src'), { recursive: true });
const write = (file, text) => {
  const path = join(root, file);
  if (!existsSync(path)) writeFileSync(path, text);
};
write(
  'project.json',
  JSON.stringify(
    {
      name,
      $schema: `${up}/node_modules/nx/schemas/project-schema.json`,
      sourceRoot: `${root}/src`,
      projectType: 'library',
      tags: [typeTag, scopeTag],
      targets: {
        typecheck: {
          executor: 'nx:run-commands',
          options: { command: `tsc -p ${root}/tsconfig.json --noEmit` },
        },
        test: {
          executor: '@nx/jest:jest',
          options: { jestConfig: `${root}/jest.config.cjs`, passWithNoTests: true },
        },
      },
    },
    null,
    2,
  ) + '\n',
);
write(
  'tsconfig.json',
  JSON.stringify(
    {
      extends: `${up}/tsconfig.base.json`,
      compilerOptions: { types: ['node', 'jest'] },
      include: ['src/**/*.ts'],
    },
    null,
    2,
  ) + '\n',
);
write(
  'jest.config.cjs',
  `module.exports = {\n  displayName: '${name}',\n  preset: '${up}/jest.preset.js',\n  rootDir: __dirname,\n  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.integration-spec.ts'],\n};\n`,
);
write(
  'eslint.config.mjs',
  `import baseConfig from '${up}/eslint.config.mjs';\n\nexport default [...baseConfig];\n`,
);
write('src/index.ts', '');
const base = JSON.parse(readFileSync('tsconfig.base.json', 'utf8'));
base.compilerOptions.paths[alias] = [`./${root}/src/index.ts`];
base.compilerOptions.paths = Object.fromEntries(
  Object.entries(base.compilerOptions.paths).sort(([a], [b]) => a.localeCompare(b)),
);
writeFileSync('tsconfig.base.json', JSON.stringify(base, null, 2) + '\n');
console.log(`created ${root} as ${alias} [${typeTag}, ${scopeTag}]`);
