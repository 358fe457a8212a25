/**
 * CONTRACT §21: after **New sandbox token** or **New client secret** the previous one keeps working for
 * the time the confirmation's choice names — 1 hour, 24 hours (the default) or not at all.
 */
export const KEEP_PREVIOUS_SECONDS = { '24h': 86_400, '1h': 3_600, now: 0 } as const;
export type KeepPrevious = keyof typeof KEEP_PREVIOUS_SECONDS;
export const KEEP_PREVIOUS_DEFAULT: KeepPrevious = '24h';
/** The form field that carries the choice. */
export const KEEP_PREVIOUS_FIELD = 'keep_previous';

/** The seconds the choice names; the default when the form has none; null for anything else (a 400). */
export function keepPreviousSeconds(raw: unknown): number | null {
  if (raw === undefined) return KEEP_PREVIOUS_SECONDS[KEEP_PREVIOUS_DEFAULT];
  return typeof raw === 'string' && Object.hasOwn(KEEP_PREVIOUS_SECONDS, raw) ? KEEP_PREVIOUS_SECONDS[raw as KeepPrevious] : null;
}
