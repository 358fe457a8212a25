/**
 * CONTRACT §15 "What happened to a delivery": an attempt that did not get a 2xx shows one of these.
 * Declared once; the pages, the documents and the tests read it from here.
 */
export const ATTEMPT_FAILURES = ['timeout', 'connection_refused', 'dns_failure', 'tls_error', 'invalid_address', 'non_2xx'] as const;
export type AttemptFailure = (typeof ATTEMPT_FAILURES)[number];

/** Resolver codes (the sender's own `dns_failure`, and getaddrinfo's should one come through). */
const DNS_CODES = new Set(['dns_failure', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'ENODATA']);
/** What the sender refuses before connecting: a URL it cannot use or an address it must not reach (CONTRACT §9). */
const ADDRESS_CODES = new Set(['invalid_url', 'forbidden_address']);

/**
 * The failure of an attempt from what the sender recorded (WebhookSender's `error`: `timeout`, `http_<status>`,
 * `dns_failure`, `invalid_url`, `forbidden_address`, or a socket/TLS code). Null for a delivered attempt.
 * A TLS failure is any of OpenSSL's certificate codes or Node's `ERR_TLS_*`/`ERR_SSL_*`. Anything else that
 * ended without an answer — refused, reset, unreachable (or a secret that would not open: nothing was
 * sent) — counts as the connection's failure.
 */
export function attemptFailure(attempt: { status: number | null; error: string | null }): AttemptFailure | null {
  const { status, error } = attempt;
  if (status !== null && status >= 200 && status < 300) return null;
  if (status !== null) return 'non_2xx';
  if (error === null) return null;
  if (error === 'timeout' || error === 'ETIMEDOUT' || error === 'ESOCKETTIMEDOUT') return 'timeout';
  if (/^http_\d{3}$/.test(error)) return 'non_2xx';
  if (DNS_CODES.has(error)) return 'dns_failure';
  if (ADDRESS_CODES.has(error)) return 'invalid_address';
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|EPROTO$|ERR_OSSL_)/.test(error) || error.includes('CERT')) return 'tls_error';
  return 'connection_refused';
}
