import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret } from './webhook-secret';

describe('generateWebhookSecret', () => {
  it('is whsec_ followed by base64 of 24 bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
  });

  it('is different every time', () => {
    const secrets = new Set(Array.from({ length: 100 }, generateWebhookSecret));
    expect(secrets.size).toBe(100);
  });

  it('is accepted by standardwebhooks, and only the same secret verifies its signatures', () => {
    const secret = generateWebhookSecret();
    const now = new Date();
    const body = '{"type":"operation.completed"}';
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('msg_1', now, body),
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual({ type: 'operation.completed' });
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });
});
