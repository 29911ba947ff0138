#!/usr/bin/env node
// Creates a Node service app (webpack build, typecheck) following the workspace conventions.
// Usage: node tools/scaffold-app.mjs <name> <scope:tag>
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [name, scopeTag] = process.argv.slice(2);
if (!name || !scopeTag?.startsWith('scope:')) {
  console.error('usage: scaffold-app.mjs <name> <scope:x>');
  process.exit(2);
}
const root = join('apps', name);
mkdirSync(join(root, 'src'), { recursive: true });
const write = (file, text) => {
  if (!existsSync(join(root, file))) writeFileSync(join(root, file), text);
};
write(
  'project.json',
  JSON.stringify(
    {
      name,
      $schema: '../../node_modules/nx/schemas/project-schema.json',
      sourceRoot: `${root}/src`,
      projectType: 'application',
      tags: ['type:app', scopeTag],
      targets: {
        typecheck: {
          executor: 'nx:run-commands',
          options: { command: `tsc -p ${root}/tsconfig.json --noEmit` },
        },
      },
    },
    null,
    2,
  ) + '\n',
);
write(
  'tsconfig.json',
  JSON.stringify({ extends: '../../tsconfig.base.json', include: ['src/**/*.ts'] }, null, 2) + '\n',
);
write(
  'webpack.config.js',
  `const { nodeAppWebpackConfig } = require('../../tools/webpack/node-app.webpack.cjs');

module.exports = nodeAppWebpackConfig({ app: '${name}' });
`,
);
write(
  'eslint.config.mjs',
  `import baseConfig from '../../eslint.config.mjs';\n\nexport default [...baseConfig];\n`,
);
console.log(`created ${root}`);
