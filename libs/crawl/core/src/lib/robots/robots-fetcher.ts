import type { GuardedHttpClient } from '@quarry/platform/net';

export interface RobotsFile {
  status: number;
  /** The body when the server answered 2xx, else empty. */
  text: string;
}

const MAX_ROBOTS_BYTES = 512 * 1024;

/** Fetches `<origin>/robots.txt` through the guarded client. Network failures read as "no robots.txt". */
export class RobotsFetcher {
  constructor(
    private readonly client: GuardedHttpClient,
    private readonly timeoutMs = 10_000,
  ) {}

  async fetch(origin: string, signal?: AbortSignal): Promise<RobotsFile> {
    try {
      const response = await this.client.fetch({
        url: `${origin}/robots.txt`,
        timeoutMs: this.timeoutMs,
        maxBytes: MAX_ROBOTS_BYTES,
        headers: { accept: 'text/plain,*/*;q=0.5' },
        signal,
      });
      const ok = response.status >= 200 && response.status < 300;
      return { status: response.status, text: ok ? response.body.toString('utf8') : '' };
    } catch {
      return { status: 0, text: '' };
    }
  }
}
