import type { Document } from '@mendable/firecrawl-js';
import { WebSocket } from 'ws';

/** A frame of a crawl or batch watcher. */
export interface Frame {
  type: string;
  data?: {
    status?: string;
    data?: Document[];
    completed?: number;
    metadata?: Record<string, unknown>;
  } & Record<string, unknown>;
}

/** Opens a raw WebSocket watcher and collects its frames until the server closes it. */
export function watchRaw(
  url: string,
  protocols: string[],
): Promise<{ frames: Frame[]; code: number; reason: string; protocol: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols);
    const frames: Frame[] = [];
    let protocol = '';
    socket.on('open', () => (protocol = socket.protocol));
    socket.on('message', (data) => frames.push(JSON.parse(data.toString()) as Frame));
    socket.on('close', (code, reason) => resolve({ frames, code, reason: reason.toString(), protocol }));
    socket.on('error', reject);
  });
}
