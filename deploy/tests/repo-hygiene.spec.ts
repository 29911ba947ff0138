import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT } from './support/repo';

/** Tracked files (git), so generated and ignored files are out of scope. */
function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\0')
    .filter(Boolean);
}

const TEXT = /\.(ts|tsx|js|mjs|cjs|json|md|ya?ml|sh|Dockerfile|tpl|toml)$|Makefile$/;

/** Project folders (those with a project.json) under libs/ and apps/. */
function projects(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (existsSync(join(REPO_ROOT, path, 'project.json'))) found.push(path);
    else found.push(...projects(path));
  }
  return found;
}

function hasSpecs(dir: string): boolean {
  return readdirSync(join(REPO_ROOT, dir), { withFileTypes: true, recursive: true }).some(
    (entry) => entry.isFile() && /\.(spec|integration-spec|e2e-spec)\.ts$/.test(entry.name),
  );
}

/**
 * Files still allowed to contain the section sign (U+00A7). Section numbers of the product spec live outside the repository,
 * so a reader cannot follow them: cite the in-repo doc instead (`docs/scraping.md#options`). This list
 * must only shrink: remove a file once its references point to docs/.
 */
const SECTION_SIGN_ALLOWED = new Set([
  // Names the sign as a permalink glyph headings carry, not as a reference.
  'libs/scrape/content/src/markdown/html-to-markdown.util.ts',
]);

describe('repository hygiene', () => {
  it('keeps every source file at 500 lines or fewer (split along a seam instead)', () => {
    const offenders = trackedFiles()
      .filter((file) => /\.(ts|tsx|js|mjs|cjs)$/.test(file) && !file.includes('/generated/'))
      .map((file) => ({ file, lines: readFileSync(join(REPO_ROOT, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 500);
    expect(offenders).toEqual([]);
  });

  it('names no absolute path of a particular machine', () => {
    const offenders = trackedFiles()
      .filter((file) => TEXT.test(file) && file !== 'package-lock.json' && file !== 'CHANGELOG.md')
      .filter((file) =>
        /(^|[\s'"`(=])\/(work|home\/[a-z]|Users)\//m.test(readFileSync(join(REPO_ROOT, file), 'utf8')),
      );
    expect(offenders).toEqual([]);
  });

  it('lets no project with tests pass its test target without running any (passWithNoTests)', () => {
    const offenders = [...projects('libs'), ...projects('apps')].filter((project) => {
      const config = readFileSync(join(REPO_ROOT, project, 'project.json'), 'utf8');
      return /"passWithNoTests":\s*true/.test(config) && hasSpecs(join(project, 'src'));
    });
    expect(offenders).toEqual([]);
  });

  it('cites no section number of a specification outside the repository in .ts or .md files', () => {
    const offenders = trackedFiles()
      .filter((file) => /\.(ts|md)$/.test(file) && !SECTION_SIGN_ALLOWED.has(file))
      .filter((file) => readFileSync(join(REPO_ROOT, file), 'utf8').includes('\u00a7'));
    expect(offenders).toEqual([]);
  });
});
