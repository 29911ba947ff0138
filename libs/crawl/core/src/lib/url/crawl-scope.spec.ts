import { crawlRequestSchema } from '@quarry/contracts';

import { CrawlScope, type ScopeDecision } from './crawl-scope';
import { trapReason, urlShape } from './trap-guard.util';

function scope(url: string, options: Record<string, unknown> = {}, maxTrapRun = 5) {
  const request = crawlRequestSchema.parse({ url, ...options });
  return new CrawlScope(url, request, maxTrapRun);
}

const parent = (url: string, depth = 0, trapRun = 0) => ({ url: new URL(url), depth, trapRun });
const accepted = (decision: ScopeDecision) => decision.accepted;

describe('CrawlScope', () => {
  it('keeps the crawl on the start host unless subdomains or external links are allowed', () => {
    const sut = scope('http://localhost:8080/');
    const from = parent('http://localhost:8080/');
    expect(accepted(sut.link('http://localhost:8080/docs', from))).toBe(true);
    expect(accepted(sut.link('http://sub.localhost:8080/', from))).toBe(false);
    expect(accepted(sut.link('http://127.0.0.1:8080/x', from))).toBe(false);
    expect(
      accepted(
        scope('http://localhost:8080/', { allowSubdomains: true }).link('http://sub.localhost:8080/', from),
      ),
    ).toBe(true);
    expect(
      accepted(
        scope('http://localhost:8080/', { allowExternalLinks: true }).link('http://127.0.0.1:8080/x', from),
      ),
    ).toBe(true);
  });

  it('stays below the start path unless crawlEntireDomain', () => {
    const sut = scope('https://example.com/blog');
    const from = parent('https://example.com/blog');
    expect(accepted(sut.link('https://example.com/blog/post-1', from))).toBe(true);
    expect(accepted(sut.link('https://example.com/blog', from))).toBe(true);
    expect(accepted(sut.link('https://example.com/blogroll', from))).toBe(false);
    expect(accepted(sut.link('https://example.com/about', from))).toBe(false);
    expect(
      accepted(
        scope('https://example.com/blog', { crawlEntireDomain: true }).link(
          'https://example.com/about',
          from,
        ),
      ),
    ).toBe(true);
  });

  it('applies include/exclude patterns to the path, or to the full URL with regexOnFullURL', () => {
    const from = parent('https://example.com/');
    const include = scope('https://example.com/', { includePaths: ['^/docs/'] });
    expect(accepted(include.link('https://example.com/docs/a', from))).toBe(true);
    expect(accepted(include.link('https://example.com/blog/a', from))).toBe(false);
    const exclude = scope('https://example.com/', { excludePaths: ['^/private'] });
    expect(accepted(exclude.link('https://example.com/private/x', from))).toBe(false);
    expect(accepted(exclude.link('https://example.com/public/x', from))).toBe(true);
    const full = scope('https://example.com/', {
      includePaths: ['^https://example\\.com/docs'],
      regexOnFullURL: true,
    });
    expect(accepted(full.link('https://example.com/docs/a', from))).toBe(true);
    expect(accepted(full.link('https://example.com/blog', from))).toBe(false);
  });

  it('counts discovery depth from the start URL and bounds it', () => {
    const sut = scope('https://example.com/', { maxDiscoveryDepth: 1 });
    expect(accepted(sut.link('https://example.com/a', parent('https://example.com/', 0)))).toBe(true);
    expect(accepted(sut.link('https://example.com/b', parent('https://example.com/a', 1)))).toBe(false);
    const decision = sut.sitemapUrl('https://example.com/deep/listed');
    expect(decision.accepted && decision.candidate.depth).toBe(0);
  });

  it('cuts chains of same-shape URLs (calendar traps) and implausible URLs', () => {
    const sut = scope('https://example.com/', {}, 3);
    let from = parent('https://example.com/calendar/2024/01');
    let chain = 0;
    for (let month = 2; month < 30; month += 1) {
      const decision = sut.link(`https://example.com/calendar/2024/${month}`, from);
      if (!decision.accepted) break;
      chain += 1;
      from = parent(decision.candidate.url, 0, decision.candidate.trapRun);
    }
    expect(chain).toBe(3);
    expect(trapReason(new URL('https://example.com/a/b/a/b/a/b/a/b'))).toBe('repeated path segments');
    expect(trapReason(new URL(`https://example.com/s?${'k=1&'.repeat(5)}`))).toBe(
      'repeated query parameters',
    );
    expect(trapReason(new URL(`https://example.com/${'x'.repeat(2_100)}`))).toBe('URL too long');
    expect(urlShape(new URL('https://example.com/calendar/2031/11?view=week'))).toBe(
      urlShape(new URL('https://example.com/calendar/2024/05?view=month')),
    );
  });

  it('skips static assets', () => {
    const sut = scope('https://example.com/');
    expect(accepted(sut.link('https://example.com/logo.png', parent('https://example.com/')))).toBe(false);
    expect(accepted(sut.link('https://example.com/report.pdf', parent('https://example.com/')))).toBe(true);
  });
});
