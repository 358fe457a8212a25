import { attemptFailure } from './attempt-failure';

describe('attemptFailure (CONTRACT §15: what happened to a delivery)', () => {
  it.each([
    [{ status: null, error: 'timeout' }, 'timeout'],
    [{ status: null, error: 'ECONNREFUSED' }, 'connection_refused'],
    [{ status: null, error: 'ECONNRESET' }, 'connection_refused'],
    [{ status: null, error: 'dns_failure' }, 'dns_failure'],
    [{ status: null, error: 'ENOTFOUND' }, 'dns_failure'],
    [{ status: null, error: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, 'tls_error'],
    [{ status: null, error: 'CERT_HAS_EXPIRED' }, 'tls_error'],
    [{ status: null, error: 'ERR_TLS_CERT_ALTNAME_INVALID' }, 'tls_error'],
    [{ status: null, error: 'EPROTO' }, 'tls_error'],
    [{ status: null, error: 'forbidden_address' }, 'invalid_address'],
    [{ status: null, error: 'invalid_url' }, 'invalid_address'],
    [{ status: 500, error: 'http_500' }, 'non_2xx'],
    [{ status: 302, error: 'http_302' }, 'non_2xx'],
  ] as const)('%j is %s', (attempt, expected) => {
    expect(attemptFailure({ ...attempt })).toBe(expected);
  });

  it('a 2xx is no failure', () => {
    expect(attemptFailure({ status: 204, error: null })).toBeNull();
  });
});
