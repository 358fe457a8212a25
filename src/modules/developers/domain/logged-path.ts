/**
 * CONTRACT §20 ("Request log"): the query parameters whose values the request log never keeps — a token or
 * secret a client put in the URL (`?token=hsk_…`) would otherwise reach whoever reads the app's log.
 */
export const MASKED_QUERY_PARAMETERS: ReadonlySet<string> = new Set(['token', 'access_token', 'code', 'secret', 'password', 'key', 'signature']);

export const MASK = '***';

function nameOf(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * A path as the request log keeps it: as sent, except that the value of each query parameter named in
 * MASKED_QUERY_PARAMETERS (whatever its letter case or percent-encoding) is `***`.
 */
export function loggedPath(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url.slice(q + 1).split('&');
  for (let i = 0; i < parts.length; i++) {
    const eq = parts[i].indexOf('=');
    if (eq >= 0 && MASKED_QUERY_PARAMETERS.has(nameOf(parts[i].slice(0, eq)).toLowerCase())) parts[i] = `${parts[i].slice(0, eq + 1)}${MASK}`;
  }
  return `${url.slice(0, q + 1)}${parts.join('&')}`;
}
