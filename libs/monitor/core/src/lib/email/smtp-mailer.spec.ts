import { type AddressInfo, createServer } from 'node:net';

import { type FakeSmtpServer, startFakeSmtpServer } from '@quarry/testing';

import { SmtpError, SmtpMailer } from './smtp-mailer';

describe('SmtpMailer', () => {
  let server: FakeSmtpServer;

  beforeAll(async () => {
    server = await startFakeSmtpServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('is not configured without a URL and then refuses to send', async () => {
    const sut = new SmtpMailer({ from: 'x@y.example' });
    expect(sut.configured).toBe(false);
    await expect(sut.send({ to: ['a@b.example'], subject: 's', text: 't' })).rejects.toThrow(SmtpError);
  });

  it('delivers a UTF-8 message with authentication to every recipient', async () => {
    const sut = new SmtpMailer({ url: server.url, from: 'Quarry Monitors <monitors@quarry.example>' });
    const text = `Grüße — the price changed.\n.leading dot line\n${'x'.repeat(200)}`;
    await sut.send({ to: ['ops@acme.example', 'cto@acme.example'], subject: 'Änderung: 2 changed', text });
    const message = server.received.at(-1);
    expect(message).toMatchObject({
      from: 'monitors@quarry.example',
      to: ['ops@acme.example', 'cto@acme.example'],
      subject: 'Änderung: 2 changed',
      text,
      user: 'user',
    });
    expect(message?.headers['from']).toBe('Quarry Monitors <monitors@quarry.example>');
  });

  it('reports a refusing server', async () => {
    const refusing = createServer((socket) => socket.end('554 no service here\r\n'));
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const port = (refusing.address() as AddressInfo).port;
    const sut = new SmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: 'a@b.example', timeoutMs: 2_000 });
    await expect(sut.send({ to: ['c@d.example'], subject: 's', text: 't' })).rejects.toThrow(/554/);
    await new Promise<void>((resolve) => refusing.close(() => resolve()));
  });
});
