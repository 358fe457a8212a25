import { DomainError } from '../../../shared/domain/errors';
import { recoverSince } from './recover-window';

const NOW = new Date('2026-11-25T12:00:00.000Z');

const refusal = (raw: unknown): DomainError => {
  try {
    recoverSince(raw, NOW, 30);
  } catch (err) {
    return err as DomainError;
  }
  throw new Error(`accepted ${JSON.stringify(raw)}`);
};

describe('recoverSince (CONTRACT §9 Recover)', () => {
  it.each([
    ['2026-11-25T08:00:00Z', '2026-11-25T08:00:00.000Z'],
    ['2026-11-25T08:00:00.250Z', '2026-11-25T08:00:00.250Z'],
    ['2026-11-25T09:00:00+01:00', '2026-11-25T08:00:00.000Z'],
    ['2026-11-25T09:00:00+0100', '2026-11-25T08:00:00.000Z'],
    ['2026-11-25T03:00-05', '2026-11-25T08:00:00.000Z'],
    ['2026-11-20', '2026-11-20T00:00:00.000Z'],
    ['2026-10-26T12:00:00Z', '2026-10-26T12:00:00.000Z'],
  ])('%s is %s', (raw, expected) => {
    expect(recoverSince(raw, NOW, 30).toISOString()).toBe(expected);
  });

  it.each([['yesterday'], [''], [12345], [null], ['2026-02-30T00:00:00Z'], ['2026-11-25T24:00:00Z'], ['2026-11-25T08:00:00'], ['2026-11-25 08:00:00Z']])(
    'refuses %j as no date, at /since',
    (raw) => {
      const err = refusal(raw);
      expect(err.code).toBe('invalid_input');
      expect(err.violations).toEqual([expect.objectContaining({ pointer: '/since', code: 'invalid_input' })]);
    },
  );

  it('refuses a time in the future', () => {
    expect(refusal('2026-11-25T12:00:01Z').violations?.[0]).toMatchObject({ pointer: '/since', detail: 'must not be in the future' });
  });

  it('refuses a time before the retention (30 days before now)', () => {
    expect(refusal('2026-10-26T11:59:59Z').violations?.[0]).toMatchObject({ pointer: '/since', detail: expect.stringContaining('retention of 30 days') });
  });
});
