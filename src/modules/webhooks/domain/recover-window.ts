import { isCalendarDate } from '../../../shared/domain/calendar-date';
import { DomainError } from '../../../shared/domain/errors';

const DAY_MS = 86_400_000;
const ISO_8601 = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?))?$/;

/** Why a Since is refused, by name (a page says it in its own words: `reason.webhookSince.<name>`), with its English detail. */
const SINCE_FORMAT = 'must be an ISO 8601 date-time with its zone, e.g. 2026-11-25T08:00:00Z';
const invalidSince = (name: 'format' | 'future' | 'retention', detail: string, params?: Record<string, string | number>) =>
  new DomainError('invalid_input', `1 violation; first: /since ${detail}`, [{ pointer: '/since', code: 'invalid_input', detail }]).because(
    `webhookSince.${name}`,
    params,
  );

/**
 * CONTRACT §9 Recover: `since` is an ISO 8601 time — a date and time with its zone (`Z` or an offset),
 * or a calendar date, read as midnight UTC — within the retention (not before now minus
 * `retentionDays`) and not in the future. Anything else is 400 `invalid_input` at `/since`.
 */
export function recoverSince(raw: unknown, now: Date, retentionDays: number): Date {
  const m = typeof raw === 'string' ? ISO_8601.exec(raw) : null;
  if (!m || !isCalendarDate(m[1])) throw invalidSince('format', SINCE_FORMAT);
  const [, date, hh = '00', mm = '00', ss = '00', fraction = '', zoneRaw = 'Z'] = m;
  if (Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) throw invalidSince('format', SINCE_FORMAT);
  const zone =
    zoneRaw === 'Z' ? 'Z' : /^[+-]\d{2}$/.test(zoneRaw) ? `${zoneRaw}:00` : zoneRaw.length === 5 ? `${zoneRaw.slice(0, 3)}:${zoneRaw.slice(3)}` : zoneRaw;
  const at = new Date(`${date}T${hh}:${mm}:${ss}${fraction.slice(0, 4)}${zone}`);
  if (Number.isNaN(at.getTime())) throw invalidSince('format', SINCE_FORMAT);
  if (at.getTime() > now.getTime()) throw invalidSince('future', 'must not be in the future');
  const oldest = new Date(now.getTime() - retentionDays * DAY_MS);
  if (at.getTime() < oldest.getTime()) {
    throw invalidSince('retention', `must be within the retention of ${retentionDays} days (not before ${oldest.toISOString()})`, {
      days: retentionDays,
      oldest: oldest.toISOString(),
    });
  }
  return at;
}
