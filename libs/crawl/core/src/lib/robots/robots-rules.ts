import robotsParser from 'robots-parser';

type Parsed = ReturnType<typeof robotsParser>;

/**
 * The robots.txt of one origin (`scheme://host:port`), as seen by one user-agent token. A missing,
 * unreadable or erroring robots.txt allows everything (the reference behaves the same way).
 */
export class RobotsRules {
  private constructor(
    readonly origin: string,
    private readonly parsed: Parsed | undefined,
    private readonly userAgent: string,
  ) {}

  static allowAll(origin: string, userAgent = '*'): RobotsRules {
    return new RobotsRules(origin, undefined, userAgent);
  }

  static parse(origin: string, text: string, userAgent: string): RobotsRules {
    return new RobotsRules(origin, robotsParser(`${origin}/robots.txt`, text), userAgent);
  }

  isAllowed(url: string): boolean {
    if (!this.parsed) return true;
    return this.parsed.isAllowed(url, this.userAgent) !== false;
  }

  sitemaps(): string[] {
    return this.parsed?.getSitemaps() ?? [];
  }
}
