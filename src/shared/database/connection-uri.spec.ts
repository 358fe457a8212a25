import fc from 'fast-check';
import { ConnectionUriError, parseConnectionUri } from './connection-uri';

describe('parseConnectionUri (libpq URI grammar, CONTRACT §16)', () => {
  it('reads several hosts with their own ports and target_session_attrs', () => {
    const uri = parseConnectionUri('postgres://user@h1:5432,h2:5433/db?target_session_attrs=read-write');
    expect(uri.hosts).toEqual([
      { host: 'h1', port: 5432 },
      { host: 'h2', port: 5433 },
    ]);
    expect(uri.targetSessionAttrs).toBe('read-write');
    expect(uri.singleHostUrl).toBe('postgres://user@h1:5432/db');
  });

  it('treats primary as read-write and defaults to any', () => {
    expect(parseConnectionUri('postgresql://h1,h2/db?target_session_attrs=primary').targetSessionAttrs).toBe('read-write');
    expect(parseConnectionUri('postgresql://h1,h2/db').targetSessionAttrs).toBe('any');
    expect(parseConnectionUri('postgresql://h1/db?target_session_attrs=any').targetSessionAttrs).toBe('any');
  });

  it('gives a host without a port the port parameter, else 5432', () => {
    expect(parseConnectionUri('postgres://h1,h2:6000,h3/db').hosts.map((h) => h.port)).toEqual([5432, 6000, 5432]);
    expect(parseConnectionUri('postgres://h1,h2:6000,h3/db?port=7000').hosts.map((h) => h.port)).toEqual([7000, 6000, 7000]);
  });

  it('reads IPv6 addresses in brackets, with and without a port', () => {
    const uri = parseConnectionUri('postgres://u:p@[::1]:5433,[2001:db8::7],127.0.0.1:5434/db?target_session_attrs=read-write');
    expect(uri.hosts).toEqual([
      { host: '::1', port: 5433 },
      { host: '2001:db8::7', port: 5432 },
      { host: '127.0.0.1', port: 5434 },
    ]);
    expect(uri.singleHostUrl).toBe('postgres://u:p@[::1]:5433/db');
    expect(uri.urlFor(uri.hosts[1])).toBe('postgres://u:p@[2001:db8::7]:5432/db');
  });

  it('decodes percent-encoded hosts and keeps the encoded user, password, database and other parameters for node-postgres', () => {
    const uri = parseConnectionUri(
      'postgres://us%40er:p%3Ass%2Fw@db%2Done.internal:5432,h2/my%20db?sslmode=disable&application_name=a%26b&target_session_attrs=read-write',
    );
    expect(uri.hosts[0]).toEqual({ host: 'db-one.internal', port: 5432 });
    expect(uri.singleHostUrl).toBe('postgres://us%40er:p%3Ass%2Fw@db-one.internal:5432/my%20db?sslmode=disable&application_name=a%26b');
  });

  it('reads hosts and ports from the host and port parameters', () => {
    expect(parseConnectionUri('postgres:///db?host=h1,h2&port=5432,5433').hosts).toEqual([
      { host: 'h1', port: 5432 },
      { host: 'h2', port: 5433 },
    ]);
  });

  it('names an empty host localhost', () => {
    expect(parseConnectionUri('postgres://u@/db').hosts).toEqual([{ host: 'localhost', port: 5432 }]);
  });

  it.each([
    ['mysql://h/db', 'must start with postgres://'],
    ['postgres://u@h1:54x2,h2/db', 'invalid port for host 1 (a number from 1 to 65535)'],
    ['postgres://u@h1,h2:0/db', 'invalid port for host 2'],
    ['postgres://u@h1,h2:70000/db', 'invalid port for host 2'],
    ['postgres://u@[::1:5432,h2/db', 'unclosed "[" in host 1'],
    ['postgres://u@[::1]x,h2/db', 'text after "]" in host 1'],
    ['postgres://u@h1,h%zz/db', 'invalid percent-encoding in host 2'],
    ['postgres://u@h1,h2/db?target_session_attrs=readwrite', 'unknown target_session_attrs value (any, read-write or primary)'],
    ['postgres://u@h1,h2/db?target_session_attrs=standby', 'would put a service that writes on a standby'],
    ['postgres://u@h1,h2/db?port=1,2,3', 'lists 3 ports in the port parameter for 2 hosts'],
    ['postgres://u@h1,h2/db?sslmode', 'parameter without "=" (parameter 1)'],
    ['postgres://u@h1,h2/db?sslmode=disable&application_name=a%zz', 'invalid percent-encoding in parameter 2'],
  ])('rejects %s', (uri, fault) => {
    expect(() => parseConnectionUri(uri)).toThrow(ConnectionUriError);
    expect(() => parseConnectionUri(uri)).toThrow(fault);
  });

  it('issue 35 finding 6: a password with an unencoded "/", "?" or "#" is never quoted, and the fault says to percent-encode it', () => {
    const faults = new Map<string, string>();
    // the two: `invalid port "S3cr3tPa"` and `parameter without "=" ("x@db1:5432/partner")`
    for (const uri of [
      'postgres://partner:S3cr3tPa/ss@db1:5432/partner',
      'postgres://partner:S3cr3tPa?x@db1:5432/partner',
      'postgres://partner:S3cr3tPa@db1:5432/partner?sslmode=disable&x@db1',
      'postgres://partner:S3cr#3tPa@db1:5432/partner',
      'postgres://partner:5432/S3cr3tPa@db1/partner',
    ]) {
      try {
        parseConnectionUri(uri);
        faults.set(uri, 'parsed');
      } catch (err) {
        faults.set(uri, (err as Error).message);
      }
    }
    for (const [uri, message] of faults) {
      expect([uri, message]).toEqual([uri, expect.stringContaining('percent-encode the password')]);
      expect(message).not.toMatch(/S3cr|3tPa|x@db1|partner/);
    }
  });

  it('never quotes a part of the URI in a fault (passwords of letters no message contains, with every delimiter)', () => {
    // Q, X, Z, J, K and V (upper case) appear in no fault message: any of them in a message is a quoted part
    const secret = fc.stringMatching(/^[QXZJKV/?@#:,%&=[\]]{1,12}$/);
    fc.assert(
      fc.property(secret, secret, secret, (password, database, param) => {
        for (const uri of [
          `postgres://QXZ:${password}@h1:5432,h2/db`,
          `postgres://u:${password}@h1/${database}?${param}`,
          `postgres://u@h1:${password}/db`,
          `postgres://u@h1/db?target_session_attrs=${param}`,
        ]) {
          try {
            parseConnectionUri(uri);
          } catch (err) {
            if (!(err instanceof ConnectionUriError)) throw err;
            expect([uri, err.message]).toEqual([uri, expect.not.stringMatching(/[QXZJKV]/)]);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never puts the password in a fault', () => {
    for (const uri of ['postgres://u:s3cr%zzet@h1,h2/db', 'postgres://u:s3cret@h1:x,h2/db', 'postgres://u:s3cret@h1,h2/db?target_session_attrs=x']) {
      let message = '';
      try {
        parseConnectionUri(uri);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).not.toBe('');
      expect(message).not.toContain('s3cr');
    }
  });
});
