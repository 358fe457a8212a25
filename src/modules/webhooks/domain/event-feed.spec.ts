import { FEED_START, feedEventOf, parsePositionText, positionText } from './event-feed';

describe('events feed positions and events (CONTRACT §14)', () => {
  it('reads back the positions it writes, and nothing else', () => {
    const p = { xid: '18446744073709551615', id: '0b9d7e8e-6f4e-4a53-9b5f-9c0d1e2f3a4b' };
    expect(parsePositionText(positionText(p))).toEqual(p);
    expect(parsePositionText(positionText(FEED_START))).toEqual(FEED_START);
    for (const bad of [
      '',
      ':',
      '7',
      '7:',
      ':0b9d7e8e-6f4e-4a53-9b5f-9c0d1e2f3a4b',
      '07:0b9d7e8e-6f4e-4a53-9b5f-9c0d1e2f3a4b',
      '-1:0b9d7e8e-6f4e-4a53-9b5f-9c0d1e2f3a4b',
      '18446744073709551616:0b9d7e8e-6f4e-4a53-9b5f-9c0d1e2f3a4b',
      '7:0B9D7E8E-6F4E-4A53-9B5F-9C0D1E2F3A4B',
      '7:not-a-uuid',
      '7:0b9d7e8e-6f4e-4a53-9b5f-9c0d1e2f3a4b:x',
      ' 7:0b9d7e8e-6f4e-4a53-9b5f-9c0d1e2f3a4b',
    ]) {
      expect({ bad, parsed: parsePositionText(bad) }).toEqual({ bad, parsed: null });
    }
  });

  it('makes the event the stored webhook body with the webhook-id first', () => {
    const body = '{"type":"operation.completed","timestamp":"2026-11-25T01:00:00.000Z","data":{"operation_id":"x"}}';
    const event = feedEventOf({ id: 'e1', body });
    expect(Object.keys(event)).toEqual(['id', 'type', 'timestamp', 'data']);
    expect(JSON.stringify(event)).toBe(`{"id":"e1",${body.slice(1)}`);
  });
});
