import type { Lang } from './i18n';

/**
 * CONTRACT §18: amounts and dates in the page's language, through `Intl` (da: `7.000,00 kr.`,
 * `20. november 2026`; en: `DKK 7,000.00`, `20 November 2026`). Owners' times are Copenhagen's, with
 * the zone written out. Intl's no-break spaces are written as plain spaces, so what a person copies
 * is what they see.
 */
const LOCALE: Record<Lang, string> = { da: 'da-DK', en: 'en-GB' };
export const OWNER_TIME_ZONE = 'Europe/Copenhagen';

const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
const amounts = new Map<Lang, Intl.NumberFormat>();
const dates = new Map<string, Intl.DateTimeFormat>();

function dateFormat(lang: Lang, kind: 'date' | 'time', timeZone: string): Intl.DateTimeFormat {
  const key = `${lang}/${kind}/${timeZone}`;
  let f = dates.get(key);
  if (!f) {
    f =
      kind === 'date'
        ? new Intl.DateTimeFormat(LOCALE[lang], { day: 'numeric', month: 'long', year: 'numeric', timeZone })
        : new Intl.DateTimeFormat(LOCALE[lang], {
            day: 'numeric',
            month: 'long',
            year: 'numeric',
            hour: '2-digit',
            minute: '2-digit',
            timeZone,
            timeZoneName: 'short',
          });
    dates.set(key, f);
  }
  return f;
}

/** Øre as Danish kroner in the page's language (`7.000,00 kr.` / `DKK 7,000.00`); øre are integers, a bigint keeps any size exact. */
export function formatAmount(lang: Lang, minor: bigint | number | string): string {
  let f = amounts.get(lang);
  if (!f) {
    f = new Intl.NumberFormat(LOCALE[lang], { style: 'currency', currency: 'DKK', currencyDisplay: lang === 'da' ? 'symbol' : 'code' });
    amounts.set(lang, f);
  }
  const m = BigInt(minor);
  const negative = m < 0n;
  const abs = negative ? -m : m;
  // format the kroner and øre as a decimal string: Intl.NumberFormat takes one exactly (no float)
  const text = `${negative ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
  return plain(f.format(text as unknown as number));
}

/** A calendar day (`20. november 2026` / `20 November 2026`): a `YYYY-MM-DD` date as it is, an instant in `timeZone`. */
export function formatDate(lang: Lang, value: Date | string, timeZone = OWNER_TIME_ZONE): string {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return plain(dateFormat(lang, 'date', 'UTC').format(new Date(`${value}T00:00:00Z`)));
  }
  return plain(dateFormat(lang, 'date', timeZone).format(value instanceof Date ? value : new Date(value)));
}

/** An instant with its zone (`20. november 2026 kl. 13.00 CET` / `20 November 2026 at 13:00 CET`). */
export function formatDateTime(lang: Lang, value: Date, timeZone = OWNER_TIME_ZONE): string {
  return plain(dateFormat(lang, 'time', timeZone).format(value));
}

/** The developer console's instants (CONTRACT §15): `2026-11-25 23:15:58 UTC`. */
export function formatUtc(value: Date): string {
  return `${value.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The formatters a template receives (`it.fmt.amount(…)`), bound to the page's language. */
export function formatters(lang: Lang) {
  return {
    amount: (minor: bigint | number | string) => formatAmount(lang, minor),
    date: (value: Date | string) => formatDate(lang, value),
    dateTime: (value: Date) => formatDateTime(lang, value),
    utc: formatUtc,
    number: (n: number) => plain(new Intl.NumberFormat(LOCALE[lang]).format(n)),
  };
}
export type Formatters = ReturnType<typeof formatters>;
