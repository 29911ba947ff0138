import { randomUUID } from 'node:crypto';
import { connect as netConnect, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';

export interface EmailMessage {
  to: string[];
  subject: string;
  text: string;
}

/** Sends email; `configured` is false when no server is set (nothing is sent then). */
export interface Mailer {
  readonly configured: boolean;
  send(message: EmailMessage): Promise<void>;
}

export interface SmtpSettings {
  /** `smtp://[user:password@]host[:port]` (STARTTLS when the server offers it) or `smtps://…` (TLS from the start). */
  url?: string;
  /** `Name <address>` or a bare address. */
  from: string;
  timeoutMs?: number;
}

interface Reply {
  code: number;
  lines: string[];
}

export class SmtpError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'SmtpError';
  }
}

/**
 * A small SMTP client (RFC 5321): EHLO, STARTTLS when offered, AUTH PLAIN with the URL's
 * credentials, one message per connection, text/plain UTF-8 in base64. The server is the
 * operator's own setting (like the LLM endpoint), so it is not subject to the outbound guard.
 */
export class SmtpMailer implements Mailer {
  readonly configured: boolean;
  private readonly server?: URL;

  constructor(private readonly settings: SmtpSettings) {
    this.server = settings.url ? new URL(settings.url) : undefined;
    this.configured = !!this.server;
  }

  async send(message: EmailMessage): Promise<void> {
    if (!this.server) throw new SmtpError('no SMTP server is configured');
    if (message.to.length === 0) return;
    const server = this.server;
    const implicitTls = server.protocol === 'smtps:';
    const host = server.hostname.replace(/^\[|\]$/g, '');
    const port = Number(server.port || (implicitTls ? 465 : 25));
    const session = await SmtpSession.open(host, port, implicitTls, this.settings.timeoutMs ?? 30_000);
    try {
      await session.expect(220);
      let capabilities = await session.ehlo();
      if (!implicitTls && capabilities.has('STARTTLS')) {
        await session.command('STARTTLS', 220);
        await session.upgrade(host);
        capabilities = await session.ehlo();
      }
      if (server.username) {
        const credentials = Buffer.from(
          `\0${decodeURIComponent(server.username)}\0${decodeURIComponent(server.password)}`,
          'utf8',
        ).toString('base64');
        await session.command(`AUTH PLAIN ${credentials}`, 235);
      }
      await session.command(`MAIL FROM:<${addressOf(this.settings.from)}>`, 250);
      for (const recipient of message.to) await session.command(`RCPT TO:<${recipient}>`, [250, 251]);
      await session.command('DATA', 354);
      await session.command(`${render(this.settings.from, message)}\r\n.`, 250);
      await session.command('QUIT', 221).catch(() => undefined);
    } finally {
      session.close();
    }
  }
}

/** One SMTP connection: command/reply turns over a socket that may be upgraded to TLS. */
class SmtpSession {
  private buffer = '';
  private pending?: { resolve: (reply: Reply) => void; reject: (error: Error) => void };
  private failure?: Error;

  private constructor(
    private socket: Socket | TLSSocket,
    private readonly timeoutMs: number,
  ) {
    this.attach(socket);
  }

  static open(host: string, port: number, tls: boolean, timeoutMs: number): Promise<SmtpSession> {
    return new Promise((resolve, reject) => {
      const socket = tls ? tlsConnect({ host, port, servername: host }) : netConnect({ host, port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new SmtpError(`SMTP connection to ${host}:${port} timed out`));
      }, timeoutMs);
      socket.once(tls ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        resolve(new SmtpSession(socket, timeoutMs));
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  async ehlo(): Promise<Set<string>> {
    const reply = await this.command(`EHLO ${hostname() || 'localhost'}`, 250);
    return new Set(reply.lines.slice(1).map((line) => line.split(' ')[0].toUpperCase()));
  }

  async command(line: string, expected: number | number[]): Promise<Reply> {
    this.socket.write(`${line}\r\n`);
    return this.expect(expected, line.split(' ')[0]);
  }

  async expect(expected: number | number[], what = 'greeting'): Promise<Reply> {
    const reply = await this.reply();
    const codes = Array.isArray(expected) ? expected : [expected];
    if (!codes.includes(reply.code))
      throw new SmtpError(`SMTP ${what} refused: ${reply.code} ${reply.lines.join(' ')}`, reply.code);
    return reply;
  }

  async upgrade(host: string): Promise<void> {
    const plain = this.socket;
    plain.removeAllListeners('data');
    this.socket = await new Promise<TLSSocket>((resolve, reject) => {
      const secure = tlsConnect({ socket: plain, servername: host }, () => resolve(secure));
      secure.once('error', reject);
    });
    this.attach(this.socket);
  }

  close(): void {
    this.socket.destroy();
  }

  private attach(socket: Socket | TLSSocket): void {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.deliver();
    });
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new SmtpError('SMTP connection closed')));
  }

  private reply(): Promise<Reply> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new SmtpError('SMTP server did not answer in time')),
        this.timeoutMs,
      );
      this.pending = {
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.deliver();
    });
  }

  /** Hands a complete (possibly multi-line) reply to the waiting command. */
  private deliver(): void {
    if (!this.pending) return;
    const lines: string[] = [];
    let offset = 0;
    for (;;) {
      const end = this.buffer.indexOf('\r\n', offset);
      if (end < 0) return;
      const line = this.buffer.slice(offset, end);
      offset = end + 2;
      lines.push(line.slice(4));
      if (line.length < 4 || line[3] !== '-') {
        this.buffer = this.buffer.slice(offset);
        const pending = this.pending;
        this.pending = undefined;
        pending.resolve({ code: Number(line.slice(0, 3)), lines });
        return;
      }
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(error);
  }
}

function addressOf(mailbox: string): string {
  const match = /<([^>]+)>/.exec(mailbox);
  return (match ? match[1] : mailbox).trim();
}

function encodeHeader(value: string): string {
  return /^[\x20-\x7e]*$/.test(value)
    ? value
    : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The message with its headers; the body is base64 (safe for any content and line length). */
function render(from: string, message: EmailMessage): string {
  const domain = addressOf(from).split('@')[1] ?? 'localhost';
  const body = (
    Buffer.from(message.text.replace(/\r?\n/g, '\r\n'), 'utf8')
      .toString('base64')
      .match(/.{1,76}/g) ?? []
  ).join('\r\n');
  return [
    `From: ${from}`,
    `To: ${message.to.join(', ')}`,
    `Subject: ${encodeHeader(message.subject)}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${randomUUID()}@${domain}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    body,
  ].join('\r\n');
}
