import { newRequestId, requestIdMiddleware } from './request-id.middleware';

describe('request ids the service makes', () => {
  it('are UUIDs of version 7 whose first 48 bits are the time in ms, so that later ids sort after earlier ones', async () => {
    const before = Date.now();
    const first = newRequestId();
    await new Promise((r) => setTimeout(r, 3));
    const second = newRequestId();
    const after = Date.now();
    for (const id of [first, second]) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const ms = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(ms(first)).toBeGreaterThanOrEqual(before);
    expect(ms(second)).toBeLessThanOrEqual(after);
    expect(ms(second)).toBeGreaterThan(ms(first));
    expect(second > first).toBe(true);
  });

  it('is what the middleware sets when the caller sent none or one it may not keep; a valid one is kept', () => {
    const seen = (given: string | undefined) => {
      const headers: Record<string, string> = {};
      const req = { headers: given === undefined ? {} : { 'x-request-id': given } } as never;
      requestIdMiddleware({ noStore: true })(req, { setHeader: (k: string, v: string) => (headers[k] = v) } as never, () => undefined);
      return headers['X-Request-Id'];
    };
    expect(seen('caller-id-1')).toBe('caller-id-1');
    for (const given of [undefined, 'has space', 'x'.repeat(129)]) expect(seen(given)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
  });
});
