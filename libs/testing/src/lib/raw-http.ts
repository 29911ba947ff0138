import { connect } from 'node:net';

export interface RawHttpAnswer {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** The body parsed as JSON when it is JSON, else the text. */
  body: unknown;
}

/**
 * One raw HTTP/1.1 exchange with 127.0.0.1:`port` (`request` written as given, read until the server
 * closes): for requests `fetch` refuses to send — oversized headers, unknown methods, broken syntax.
 */
export function rawHttpExchange(port: number, request: string): Promise<RawHttpAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let raw = '';
    socket.on('data', (chunk: Buffer) => (raw += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const split = raw.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = raw.slice(0, Math.max(0, split)).split('\r\n');
      const status = Number(statusLine?.split(' ')[1]);
      if (!status || split < 0) return reject(new Error(`no HTTP answer: ${raw.slice(0, 200)}`));
      const headers = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).trim().toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      const text = raw.slice(split + 4);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: the caller's assertion shows the text
      }
      resolve({ status, headers, body });
    });
  });
}
