import type { CollectionStatus, WatcherFrame } from '@quarry/contracts';

export interface Progress {
  status: CollectionStatus;
  completed: number;
  total: number;
  creditsUsed: number;
  /** How progress arrives: the WebSocket watcher, or status polls when no socket could be opened. */
  via: 'websocket' | 'polling';
}

export type CollectionKind = 'crawl' | 'batch';

export const collectionPath = (kind: CollectionKind, id: string) =>
  kind === 'crawl' ? `/v2/crawl/${id}` : `/v2/batch/scrape/${id}`;

/**
 * Follows a crawl or batch through the API's WebSocket watcher (`/v2/crawl/:id`). The key travels as
 * the WebSocket subprotocol, never in the URL. A `catchup` frame gives the status, each `document`
 * frame one more finished page, `done` the end; `status` polls (every `pollMs`) keep `total` current
 * and take over entirely when no socket can be opened.
 */
export function watchCollection(
  kind: CollectionKind,
  id: string,
  key: string,
  onProgress: (progress: Progress) => void,
  fetchStatus: () => Promise<{
    status: CollectionStatus;
    completed: number;
    total: number;
    creditsUsed: number;
  }>,
  pollMs = 2_000,
): () => void {
  let stopped = false;
  let socket: WebSocket | undefined;
  let via: Progress['via'] = 'websocket';
  let current: Progress | undefined;
  const emit = (next: Omit<Progress, 'via'>) => {
    if (stopped) return;
    current = {
      ...next,
      via,
      completed: Math.max(next.completed, current?.completed ?? 0),
      total: Math.max(next.total, next.completed),
    };
    onProgress(current);
  };
  const poll = async () => {
    while (!stopped) {
      try {
        const status = await fetchStatus();
        emit(status);
        if (status.status !== 'scraping') return stop();
      } catch {
        // keep polling: a transient error does not end the watch
      }
      // with the socket open, polls only refresh `total` (discovered pages): less often
      const open = socket?.readyState === WebSocket.OPEN;
      await new Promise((resolve) => setTimeout(resolve, open ? pollMs * 2.5 : pollMs));
    }
  };
  const stop = () => {
    stopped = true;
    socket?.close();
  };
  try {
    const url = new URL(collectionPath(kind, id), location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(url.toString(), [key]);
    socket.onmessage = (message) => {
      const frame = JSON.parse(String(message.data)) as WatcherFrame;
      if (frame.type === 'catchup')
        emit({
          status: frame.data.status,
          completed: frame.data.completed,
          total: frame.data.total,
          creditsUsed: frame.data.creditsUsed,
        });
      else if (frame.type === 'document' && current)
        emit({
          ...current,
          completed: current.completed + 1,
          total: Math.max(current.total, current.completed + 1),
        });
      else if (frame.type === 'done')
        emit({
          status: frame.data.status,
          completed: frame.data.completed,
          total: frame.data.total,
          creditsUsed: frame.data.creditsUsed,
        });
    };
    socket.onerror = () => {
      via = 'polling';
    };
  } catch {
    // a key that is not a valid subprotocol token: polling alone
    via = 'polling';
  }
  void poll();
  return stop;
}
