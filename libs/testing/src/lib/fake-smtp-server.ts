import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';

export interface ReceivedEmail {
  from: string;
  to: string[];
  subject: string;
  /** The decoded text body. */
  text: string;
  headers: Record<string, string>;
  /** AUTH PLAIN user, when the client authenticated. */
  user?: string;
}

export interface FakeSmtpServer {
  /** `smtp://user:secret@127.0.0.1:<port>` (any credentials are accepted). */
  url: string;
  received: ReceivedEmail[];
  close(): Promise<void>;
}

/**
 * A mail server on 127.0.0.1 speaking enough SMTP (EHLO, AUTH PLAIN, MAIL, RCPT, DATA, QUIT) to
 * receive what a real client sends; messages are parsed (base64 and quoted-printable bodies, RFC 2047
 * subjects) and kept in arrival order.
 */
export async function startFakeSmtpServer(): Promise<FakeSmtpServer> {
  const received: ReceivedEmail[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let from = '';
    let to: string[] = [];
    let user: string | undefined;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 fake-smtp ready');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          const raw = buffer.slice(0, end).replace(/^\.\./gm, '.');
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push({ ...parseMessage(raw), from, to, user });
          from = '';
          to = [];
          reply('250 queued');
          continue;
        }
        const end = buffer.indexOf('\r\n');
        if (end < 0) return;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const verb = line.split(' ')[0].toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO')
          socket.write('250-fake-smtp\r\n250-8BITMIME\r\n250 AUTH PLAIN\r\n');
        else if (verb === 'AUTH') {
          const decoded = Buffer.from(line.split(' ')[2] ?? '', 'base64')
            .toString('utf8')
            .split('\0');
          user = decoded[1];
          reply('235 authenticated');
        } else if (verb === 'MAIL') {
          from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          reply('250 ok');
        } else if (verb === 'RCPT') {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 ok');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 ok');
        else reply('502 not implemented');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `smtp://user:secret@127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function parseMessage(raw: string): Pick<ReceivedEmail, 'subject' | 'text' | 'headers'> {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  let text = body;
  if (encoding === 'base64') text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  else if (encoding === 'quoted-printable') {
    text = Buffer.from(
      body
        .replace(/=\r\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  }
  const subject = (headers['subject'] ?? '').replace(/=\?utf-8\?b\?([^?]*)\?=/gi, (_m, data: string) =>
    Buffer.from(data, 'base64').toString('utf8'),
  );
  return { subject, text: text.replace(/\r\n/g, '\n'), headers };
}
