import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';

// Module boundaries: apps compose features; features compose domain + platform; platform adapts infrastructure;
// contracts depend on nothing of ours. Scopes keep product areas apart; `shared` and `core` are usable by all.
const typeRules = [
  {
    sourceTag: 'type:app',
    onlyDependOnLibsWithTags: ['type:feature', 'type:domain', 'type:platform', 'type:contracts', 'type:util'],
  },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:testing'] },
  {
    sourceTag: 'type:feature',
    onlyDependOnLibsWithTags: ['type:feature', 'type:domain', 'type:platform', 'type:contracts', 'type:util'],
  },
  {
    sourceTag: 'type:domain',
    onlyDependOnLibsWithTags: ['type:domain', 'type:platform', 'type:contracts', 'type:util'],
  },
  { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:util'] },
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:util'] },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
  {
    sourceTag: 'type:testing',
    onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:util', 'type:testing'],
  },
];
const scopeRules = [
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:core', onlyDependOnLibsWithTags: ['scope:core', 'scope:shared'] },
  { sourceTag: 'scope:scrape', onlyDependOnLibsWithTags: ['scope:scrape', 'scope:core', 'scope:shared'] },
  {
    sourceTag: 'scope:crawl',
    onlyDependOnLibsWithTags: ['scope:crawl', 'scope:scrape', 'scope:core', 'scope:shared'],
  },
  // Documents reuse the scrape content pipeline (HTML → markdown) and plug a PDF handler into the scrape engine.
  {
    sourceTag: 'scope:documents',
    onlyDependOnLibsWithTags: ['scope:documents', 'scope:scrape', 'scope:core', 'scope:shared'],
  },
  {
    sourceTag: 'scope:agent',
    onlyDependOnLibsWithTags: ['scope:agent', 'scope:scrape', 'scope:core', 'scope:shared'],
  },
  // Monitors run their checks as crawls, batches and searches, and compare pages with the scrape's change tracking.
  {
    sourceTag: 'scope:monitor',
    onlyDependOnLibsWithTags: ['scope:monitor', 'scope:crawl', 'scope:scrape', 'scope:core', 'scope:shared'],
  },
  { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['*'] },
  { sourceTag: 'scope:worker', onlyDependOnLibsWithTags: ['*'] },
  { sourceTag: 'scope:standalone', onlyDependOnLibsWithTags: ['*'] },
];

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
    files: ['**/*.ts'],
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
