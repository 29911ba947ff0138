import { createHmac } from 'node:crypto';

import { signWebhookBody, verifyWebhookSignature } from './webhook-signature.util';

describe('webhook signatures', () => {
  it('is sha256=<hex HMAC-SHA256 of the exact body>', () => {
    const body = JSON.stringify({ success: true, type: 'crawl.page' });
    expect(signWebhookBody(body, 'secret')).toBe(
      `sha256=${createHmac('sha256', 'secret').update(body).digest('hex')}`,
    );
    expect(verifyWebhookSignature(body, 'secret', signWebhookBody(body, 'secret'))).toBe(true);
    expect(verifyWebhookSignature(`${body} `, 'secret', signWebhookBody(body, 'secret'))).toBe(false);
    expect(verifyWebhookSignature(body, 'other', signWebhookBody(body, 'secret'))).toBe(false);
  });
});
