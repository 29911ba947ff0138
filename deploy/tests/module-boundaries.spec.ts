import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { readRepoFile, REPO_ROOT } from './support/repo';

interface Rule {
  sourceTag: string;
  onlyDependOnLibsWithTags: string[];
}

const boundaries = JSON.parse(readRepoFile('tools/module-boundaries.json')) as {
  typeRules: Rule[];
  scopeRules: Rule[];
  featureDependencies: Record<string, string[] | string>;
};
const architecture = readRepoFile('docs/architecture.md');

/** The `| source | targets |` rows between `<!-- BEGIN name -->` and `<!-- END name -->` of docs/architecture.md. */
function matrix(name: string): Rule[] {
  const start = architecture.indexOf(`<!-- BEGIN ${name} -->`);
  const end = architecture.indexOf(`<!-- END ${name} -->`);
  if (start < 0 || end < start) throw new Error(`docs/architecture.md has no ${name}`);
  return [...architecture.slice(start, end).matchAll(/^\| `([a-z]+:[a-z0-9-]+)` \| (.*) \|$/gm)].map(
    (match) => ({
      sourceTag: match[1],
      onlyDependOnLibsWithTags: [...match[2].matchAll(/`([^`]+)`/g)].map((tag) => tag[1]),
    }),
  );
}

const normalised = (rules: Rule[]) =>
  rules
    .map((rule) => ({ ...rule, onlyDependOnLibsWithTags: [...rule.onlyDependOnLibsWithTags].sort() }))
    .sort((a, b) => a.sourceTag.localeCompare(b.sourceTag));

interface Project {
  name: string;
  root: string;
  tags: string[];
}

/** Every Nx project under libs/ and apps/ (a folder with a project.json). */
function allProjects(): Project[] {
  return ['libs', 'apps'].flatMap((top) =>
    readdirSync(join(REPO_ROOT, top), { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('project.json') && !path.includes('node_modules'))
      .map((path) => {
        const root = `${top}/${dirname(path)}`;
        const json = JSON.parse(readRepoFile(`${root}/project.json`)) as { name: string; tags?: string[] };
        return { name: json.name, root, tags: json.tags ?? [] };
      }),
  );
}

/** Feature → feature imports found in the non-test sources, as `source → [targets]`. */
function featureImports(): Record<string, string[]> {
  const projects = allProjects();
  const owner = (path: string) =>
    projects
      .filter((project) => path.startsWith(`${project.root}/`))
      .sort((a, b) => b.root.length - a.root.length)[0];
  const paths = (
    JSON.parse(readRepoFile('tsconfig.base.json')) as { compilerOptions: { paths: Record<string, string[]> } }
  ).compilerOptions.paths;
  const byAlias = new Map(
    Object.entries(paths).map(([alias, [target]]) => [alias, owner(target.replace(/^\.\//, ''))]),
  );
  const edges: Record<string, Set<string>> = {};
  for (const project of projects.filter((candidate) => candidate.tags.includes('type:feature'))) {
    const sources = readdirSync(join(REPO_ROOT, project.root, 'src'), {
      recursive: true,
      encoding: 'utf8',
    }).filter((file) => file.endsWith('.ts') && !/\.(spec|integration-spec|e2e-spec)\.ts$/.test(file));
    for (const file of sources) {
      const text = readFileSync(join(REPO_ROOT, project.root, 'src', file), 'utf8');
      for (const [, alias] of text.matchAll(/from '(@quarry\/[^']+)'/g)) {
        const target = byAlias.get(alias);
        if (!target || target.name === project.name || !target.tags.includes('type:feature')) continue;
        (edges[project.name] ??= new Set()).add(target.name);
      }
    }
  }
  return Object.fromEntries(Object.entries(edges).map(([source, targets]) => [source, [...targets].sort()]));
}

describe('module boundaries', () => {
  it('lets a feature project use another feature project only through the named allow-list', () => {
    const allowed = Object.fromEntries(
      Object.entries(boundaries.featureDependencies)
        .filter((entry): entry is [string, string[]] => Array.isArray(entry[1]))
        .map(([source, targets]) => [source, [...targets].sort()]),
    );
    expect(featureImports()).toEqual(allowed);
  });

  it('docs/architecture.md shows the type matrix the lint config enforces', () => {
    expect(normalised(matrix('type matrix'))).toEqual(normalised(boundaries.typeRules));
  });

  it('docs/architecture.md shows the scope matrix the lint config enforces', () => {
    expect(normalised(matrix('scope matrix'))).toEqual(normalised(boundaries.scopeRules));
  });

  it('lists every scope explicitly (no wildcard)', () => {
    for (const rule of [...boundaries.typeRules, ...boundaries.scopeRules])
      expect(rule.onlyDependOnLibsWithTags).not.toContain('*');
  });
});
