import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { crawlOptionsFromPrompt } from './prompt-options.util';
import { outlineFromLinks } from './site-outline.util';

interface Site {
  id: string;
  start: string;
  links: [string, string][];
  sitemap: string[];
}
interface PromptCase {
  split: 'tuning' | 'heldout';
  site: string;
  prompt: string;
  expect: { sections?: string[]; without?: string[]; options?: Record<string, unknown> };
}

const fixture = JSON.parse(readFileSync(join(__dirname, '../../fixtures/crawl-prompts.json'), 'utf8')) as {
  sites: Site[];
  prompts: PromptCase[];
};

function pathsOf(site: Site): string[] {
  return [...new Set([...site.links.map(([url]) => url), ...site.sitemap])].map(
    (url) => new URL(url, site.start).pathname,
  );
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** Whether the options a prompt produced select exactly the expected pages and set exactly the expected options. */
function judge(entry: PromptCase): { correct: boolean; detail: string } {
  const site = fixture.sites.find((candidate) => candidate.id === entry.site) as Site;
  const outline = outlineFromLinks(
    site.start,
    site.links.map(([url, text]) => ({ url: new URL(url, site.start).href, text })),
    site.sitemap.map((url) => new URL(url, site.start).href),
  );
  const { options } = crawlOptionsFromPrompt(entry.prompt, outline);
  const { includePaths, excludePaths, ...rest } = options;
  const paths = pathsOf(site);
  const selected = paths.filter(
    (path) =>
      (!includePaths?.length || includePaths.some((pattern) => new RegExp(pattern).test(path))) &&
      !excludePaths?.some((pattern) => new RegExp(pattern).test(path)),
  );
  const wanted = paths.filter(
    (path) =>
      (!entry.expect.sections || entry.expect.sections.some((prefix) => under(path, prefix))) &&
      !entry.expect.without?.some((prefix) => under(path, prefix)),
  );
  const sameSelection = selected.length === wanted.length && selected.every((path) => wanted.includes(path));
  const sameOptions =
    JSON.stringify(Object.entries(rest).sort()) ===
    JSON.stringify(Object.entries(entry.expect.options ?? {}).sort());
  return {
    correct: sameSelection && sameOptions,
    detail: `include ${JSON.stringify(includePaths ?? [])} exclude ${JSON.stringify(excludePaths ?? [])} options ${JSON.stringify(rest)}`,
  };
}

function score(split: PromptCase['split']): { correct: number; total: number; misses: string[] } {
  const cases = fixture.prompts.filter((entry) => entry.split === split);
  const misses: string[] = [];
  let correct = 0;
  for (const entry of cases) {
    const result = judge(entry);
    if (result.correct) correct += 1;
    else misses.push(`  ${entry.site}: "${entry.prompt}" → ${result.detail}`);
  }
  return { correct, total: cases.length, misses };
}

/**
 * Crawl prompts read offline against the sections the site's links and sitemap show
 * (fixtures/crawl-prompts.json, docs/crawl.md): a prompt is mapped correctly when its options
 * select exactly the expected pages and set exactly the expected options.
 */
describe('crawl prompts → options offline, against fixture sites', () => {
  it.each([
    ['tuning', 30, 0.95],
    ['heldout', 12, 0.9],
  ] as const)('%s prompts', (split, minimum, floor) => {
    const result = score(split);
    process.stdout.write(
      `\ncrawl prompts (${split}): ${result.correct}/${result.total} mapped correctly (${((100 * result.correct) / result.total).toFixed(1)}%)\n${result.misses.join('\n')}\n`,
    );
    expect(result.total).toBeGreaterThanOrEqual(minimum);
    expect(result.correct / result.total).toBeGreaterThanOrEqual(floor);
  });
});
