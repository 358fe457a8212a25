import { expiringAtOnce, grantExpiringEvent, grantRevokedEvent } from './grant-events';

const grant = {
  organizationId: '11111111-1111-4111-8111-111111111111',
  id: '22222222-2222-4222-8222-222222222222',
  appId: '33333333-3333-4333-8333-333333333333',
};
const now = new Date('2026-11-26T09:00:00.000Z');

describe('grant events (CONTRACT §18)', () => {
  it('grant.revoked: exactly type, timestamp, data; data exactly grant_id, organization_id, reason, at', () => {
    const e = grantRevokedEvent('e1', grant, 'expired', new Date('2026-11-25T08:00:00Z'), now);
    expect(e).toMatchObject({ id: 'e1', organizationId: grant.organizationId, appId: grant.appId, type: 'grant.revoked', createdAt: now });
    expect(e.body).toBe(
      '{"type":"grant.revoked","timestamp":"2026-11-26T09:00:00.000Z","data":{"grant_id":"22222222-2222-4222-8222-222222222222",' +
        '"organization_id":"11111111-1111-4111-8111-111111111111","reason":"expired","at":"2026-11-25T08:00:00.000Z"}}',
    );
  });

  it('grant.expiring: data exactly grant_id, organization_id, expires_at (no app id)', () => {
    const e = grantExpiringEvent('e2', grant, new Date('2026-12-10T09:00:00Z'), now);
    expect(JSON.parse(e.body)).toEqual({
      type: 'grant.expiring',
      timestamp: '2026-11-26T09:00:00.000Z',
      data: { grant_id: grant.id, organization_id: grant.organizationId, expires_at: '2026-12-10T09:00:00.000Z' },
    });
  });

  it('a grant of 14 days or less is expiring at once; a millisecond more is not', () => {
    const days14 = new Date(now.getTime() + 14 * 86_400_000);
    expect(expiringAtOnce(now, days14)).toBe(true);
    expect(expiringAtOnce(now, new Date(days14.getTime() + 1))).toBe(false);
    expect(expiringAtOnce(now, new Date(now.getTime() + 1_000))).toBe(true);
  });
});
