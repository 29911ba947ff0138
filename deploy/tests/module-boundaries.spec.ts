import { readRepoFile } from './support/repo';

interface Rule {
  sourceTag: string;
  onlyDependOnLibsWithTags: string[];
}

const boundaries = JSON.parse(readRepoFile('tools/module-boundaries.json')) as {
  typeRules: Rule[];
  scopeRules: Rule[];
  frameworkFree: { wiringExceptions: string[] };
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

describe('module boundaries', () => {
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

  it('names only existing files as framework wiring exceptions of domain libs', () => {
    for (const file of boundaries.frameworkFree.wiringExceptions)
      expect(() => readRepoFile(file)).not.toThrow();
  });
});
