import { decodeBody, transformDocument } from '@quarry/scrape/content';
import { extractiveSummary, sentences, terms, words } from '@quarry/scrape/formats';

import { loadWcxb, wcxbDir } from './wcxb';

/** First three sentences of the markdown prose: the usual "lead-3" summarisation baseline. */
function lead3(markdown: string): string {
  const prose = markdown
    .split('\n')
    .filter((line) => line.trim() && !/^\s*(#|\||```|!\[)/.test(line))
    .join(' ');
  return sentences(prose.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'))
    .filter((sentence) => sentence.split(/\s+/).length >= 6)
    .slice(0, 3)
    .join(' ');
}

function multiset(tokens: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

/** Share of the summary's words that are words of the reference main content (boilerplate avoidance). */
function precisionInMain(summary: string, main: Map<string, number>): number {
  const tokens = words(summary);
  if (tokens.length === 0) return 0;
  const left = new Map(main);
  let hit = 0;
  for (const token of tokens) {
    const count = left.get(token) ?? 0;
    if (count > 0) {
      hit += 1;
      left.set(token, count - 1);
    }
  }
  return hit / tokens.length;
}

describe('offline summary quality (WCXB articles)', () => {
  it('keyword coverage and main-content precision against a lead-3 baseline', () => {
    const full = process.env['WCXB_FULL'] === '1';
    const records = loadWcxb(wcxbDir(process.env['WCXB_DIR'])).filter(
      (record, index) => record.pageType === 'article' && (full || index % 5 === 0),
    );
    // Corpus document frequency of terms, to pick each article's topical keywords (top 10 by tf-idf).
    const df = new Map<string, number>();
    const termLists = records.map((record) => terms(record.mainContent));
    for (const list of termLists) for (const term of new Set(list)) df.set(term, (df.get(term) ?? 0) + 1);
    const totals = {
      ours: { coverage: 0, precision: 0, chars: 0 },
      lead3: { coverage: 0, precision: 0, chars: 0 },
    };
    records.forEach((record, index) => {
      const markdown =
        transformDocument({ body: decodeBody(record.html).text, url: record.url }, ['markdown'], {
          onlyMainContent: true,
          removeBase64Images: true,
        }).markdown ?? '';
      const tf = multiset(termLists[index]);
      const keywords = [...tf.entries()]
        .map(([term, count]) => [term, count * Math.log(records.length / (df.get(term) ?? 1))] as const)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 10)
        .map(([term]) => term);
      const main = multiset(words(record.mainContent));
      for (const [name, summary] of [
        ['ours', extractiveSummary(markdown, { title: record.title ?? undefined })],
        ['lead3', lead3(markdown)],
      ] as const) {
        const summaryTerms = new Set(terms(summary));
        totals[name].coverage +=
          keywords.filter((keyword) => summaryTerms.has(keyword)).length / Math.max(1, keywords.length);
        totals[name].precision += precisionInMain(summary, main);
        totals[name].chars += summary.length;
      }
    });
    const n = records.length;
    const row = (name: 'ours' | 'lead3') =>
      `${name.padEnd(6)} keyword coverage ${(totals[name].coverage / n).toFixed(3)}  main-content precision ${(totals[name].precision / n).toFixed(3)}  mean length ${Math.round(totals[name].chars / n)} chars`;
    process.stdout.write(
      `\nsummary fallback on ${n} WCXB articles (${full ? 'all' : 'every 5th page'}):\n${row('ours')}\n${row('lead3')}\n`,
    );
    expect(totals.ours.precision / n).toBeGreaterThan(0.8);
    expect(totals.ours.coverage / n).toBeGreaterThanOrEqual((totals.lead3.coverage / n) * 0.95);
  }, 300_000);
});
