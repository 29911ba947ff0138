import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import simpleImportSort from 'eslint-plugin-simple-import-sort';

// Module boundaries live in tools/module-boundaries.json (docs/architecture.md shows them as a matrix, and
// deploy/tests/module-boundaries.spec.ts keeps the two equal): apps compose features; features compose domain
// + platform; platform adapts infrastructure; contracts depend on nothing of ours. Scopes keep product areas
// apart; `shared` and `core` are usable by all, and every scope lists what it may use (no `*`).
const boundaries = JSON.parse(
  readFileSync(new URL('./tools/module-boundaries.json', import.meta.url), 'utf8'),
);
const { typeRules, scopeRules, frameworkFree } = boundaries;

const ROOT = dirname(fileURLToPath(import.meta.url));

/** Roots of the projects tagged `type:domain`, relative to the repository (read from project.json, so moves follow). */
function domainRoots() {
  const roots = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name === 'src') continue;
      const path = join(dir, entry.name);
      if (existsSync(join(path, 'project.json'))) {
        const project = JSON.parse(readFileSync(join(path, 'project.json'), 'utf8'));
        if ((project.tags ?? []).includes('type:domain')) roots.push(relative(ROOT, path));
      }
      walk(path);
    }
  };
  walk(join(ROOT, 'libs'));
  return roots;
}

/**
 * The files of domain projects, as patterns relative to where ESLint runs: Nx lints a project from
 * its own folder (where a pattern naming the repository path would match nothing), editors from the root.
 */
function domainFiles() {
  const here = relative(ROOT, process.cwd());
  const roots = domainRoots();
  if (roots.includes(here)) return { files: ['src/**/*.ts'] };
  return { files: roots.map((root) => `${root}/src/**/*.ts`) };
}

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  prettier,
  {
    ignores: [
      '**/dist',
      '**/node_modules',
      '**/generated/**',
      '**/.nx',
      'infra/**',
      'bench/node_modules/**',
      '.data/**',
      '.cache/**',
    ],
  },
  {
    // One import order everywhere (`make format` / `eslint --fix` applies it): side-effect imports
    // first and in place (their order can matter), then node: built-ins, packages, @quarry/* libs, and
    // relative paths. Exports are left alone: a barrel's order is its modules' evaluation order.
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs', '**/*.cjs'],
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: {
      'simple-import-sort/imports': [
        'error',
        { groups: [['^\\u0000'], ['^node:'], ['^@?\\w'], ['^@quarry/'], ['^\\.']] },
      ],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          banTransitiveDependencies: false,
          allow: [],
          depConstraints: [...typeRules, ...scopeRules],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration through @quarry/platform/config only.',
        },
      ],
    },
  },
  {
    // Domain libs are framework-free (docs/architecture.md).
    ...domainFiles(),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: frameworkFree.bannedImports,
              message:
                'Domain libs are plain TypeScript: wire them with Nest in a feature lib (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests may use the testing helpers whatever the project type.
    files: ['**/*.spec.ts', '**/*.integration-spec.ts', '**/*.e2e-spec.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            ...typeRules.map((rule) => ({
              ...rule,
              onlyDependOnLibsWithTags: [...rule.onlyDependOnLibsWithTags, 'type:testing'],
            })),
            ...scopeRules,
          ],
        },
      ],
    },
  },
  {
    files: [
      '**/*.spec.ts',
      '**/*.integration-spec.ts',
      '**/*.e2e-spec.ts',
      '**/jest.config.cjs',
      '**/webpack.config.js',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['**/*.cjs', '**/jest.config.cjs', '**/webpack.config.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];
