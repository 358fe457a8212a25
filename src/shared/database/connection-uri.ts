/**
 * A PostgreSQL connection URI as libpq reads it (PostgreSQL 15 manual, 34.1.1.2 and 34.1.1.3):
 *
 *   postgres[ql]://[user[:password]@][host[:port]][,host[:port]...][/dbname][?param=value&...]
 *
 * node-postgres reads only one host (brianc/node-postgres #1470, #2308); this parser exists for the
 * several-hosts form (CONTRACT §16, docs/adr/0007-multi-host-selection.md). Every component may be
 * percent-encoded; an IPv6 address is written in brackets; a host without a port takes the `port`
 * parameter, else 5432; an empty host the `host` parameter, else localhost. `host` and `port`
 * parameters may also list the hosts (`?host=h1,h2&port=5432,5433`), as libpq allows.
 */
export type TargetSessionAttrs = 'any' | 'read-write';

export interface HostPort {
  host: string;
  port: number;
}

export interface ConnectionUri {
  hosts: HostPort[];
  /** `read-write` and `primary` both mean 'the host that accepts writes' here (CONTRACT §16). */
  targetSessionAttrs: TargetSessionAttrs;
  /** The same URI with only `hosts[0]`, no host list and no target_session_attrs: what node-postgres can read. */
  singleHostUrl: string;
  /** That URI for another of the hosts. */
  urlFor(host: HostPort): string;
}

/**
 * A malformed URI; the message names the fault and where it is (which host, which parameter), and never
 * quotes any part of the URI: with an unencoded "/", "?" or "#" in the password, what the grammar reads
 * as a port, a parameter or a database name is a piece of the password (issue 35 finding 6).
 */
export class ConnectionUriError extends Error {}

const DEFAULT_PORT = 5432;
const DEFAULT_HOST = 'localhost';

function decode(component: string, what: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    throw new ConnectionUriError(`has an invalid percent-encoding in ${what}`);
  }
}

function parsePort(raw: string, what: string): number {
  if (!/^[0-9]{1,5}$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) {
    throw new ConnectionUriError(`has an invalid port for ${what} (a number from 1 to 65535)`);
  }
  return Number(raw);
}

/** One `host[:port]` of the host list, still percent-encoded; port null when not given. */
function splitHostPort(spec: string, n: number): { host: string; port: string | null } {
  if (spec.startsWith('[')) {
    const close = spec.indexOf(']');
    if (close < 0) throw new ConnectionUriError(`has an unclosed "[" in host ${n}`);
    const host = spec.slice(1, close);
    if (host === '' || !/^[0-9a-fA-F:.%]+$/.test(host)) throw new ConnectionUriError(`has an invalid IPv6 address in host ${n}`);
    const rest = spec.slice(close + 1);
    if (rest === '') return { host, port: null };
    if (!rest.startsWith(':')) throw new ConnectionUriError(`has text after "]" in host ${n}`);
    return { host, port: rest.slice(1) };
  }
  const colon = spec.indexOf(':');
  if (colon < 0) return { host: spec, port: null };
  return { host: spec.slice(0, colon), port: spec.slice(colon + 1) };
}

const ATTRS: Record<string, TargetSessionAttrs | null> = {
  any: 'any',
  'read-write': 'read-write',
  primary: 'read-write',
  // the service writes: a session on a standby could not serve one request
  'read-only': null,
  standby: null,
  'prefer-standby': null,
};

/** Parses a postgres:// or postgresql:// URI; throws ConnectionUriError naming the fault. */
export function parseConnectionUri(uri: string): ConnectionUri {
  const scheme = /^postgres(?:ql)?:\/\//.exec(uri);
  if (!scheme) throw new ConnectionUriError('must start with postgres:// or postgresql://');
  const rest = uri.slice(scheme[0].length);
  // the authority ends at the first "/" or "?"; the user information at its last "@"
  const authorityEnd = rest.search(/[/?]/);
  // an "@" after that is almost always a password with an unencoded "/" or "?" (which would otherwise be
  // read as a port, a database name or a parameter, and named in a message or by the server); an "@" in
  // a database name or parameter is written %40
  if (rest.includes('#')) {
    // a fragment ends the URI for node-postgres's URL parser: a password with "#" would be cut there
    throw new ConnectionUriError('has a "#": percent-encode the password (# as %23, / as %2F, ? as %3F, @ as %40)');
  }
  if (authorityEnd >= 0 && rest.indexOf('@', authorityEnd) >= 0) {
    throw new ConnectionUriError('has an "@" after a "/" or "?": percent-encode the password (/ as %2F, ? as %3F, @ as %40, # as %23)');
  }
  const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd);
  const tail = authorityEnd < 0 ? '' : rest.slice(authorityEnd);
  const at = authority.lastIndexOf('@');
  const userinfo = at < 0 ? null : authority.slice(0, at);
  const hostList = at < 0 ? authority : authority.slice(at + 1);
  if (userinfo !== null) {
    const colon = userinfo.indexOf(':');
    decode(colon < 0 ? userinfo : userinfo.slice(0, colon), 'the user name');
    if (colon >= 0) decode(userinfo.slice(colon + 1), 'the password');
  }

  const query = tail.includes('?') ? tail.slice(tail.indexOf('?') + 1) : '';
  const path = tail.includes('?') ? tail.slice(0, tail.indexOf('?')) : tail;
  if (path.length > 1) decode(path.slice(1), 'the database name');
  const params = new Map<string, string>();
  const kept: string[] = [];
  let n = 0;
  for (const pair of query === '' ? [] : query.split('&')) {
    if (pair === '') continue;
    n++;
    const eq = pair.indexOf('=');
    if (eq < 0) throw new ConnectionUriError(`has a parameter without "=" (parameter ${n})`);
    const key = decode(pair.slice(0, eq), `parameter ${n}`);
    const value = decode(pair.slice(eq + 1), `parameter ${n}`);
    params.set(key, value);
    if (key !== 'target_session_attrs' && key !== 'host' && key !== 'port') kept.push(pair);
  }

  const attrsRaw = params.get('target_session_attrs') ?? 'any';
  if (!(attrsRaw in ATTRS)) {
    throw new ConnectionUriError('has an unknown target_session_attrs value (any, read-write or primary)');
  }
  const targetSessionAttrs = ATTRS[attrsRaw];
  if (targetSessionAttrs === null) {
    throw new ConnectionUriError(`target_session_attrs=${attrsRaw} would put a service that writes on a standby (use read-write or primary)`);
  }

  const hostParam = params.get('host');
  const portParam = params.get('port');
  // hosts from the URI's authority, else from the host parameter (libpq: the parameter wins if both are given)
  let specs: Array<{ host: string; port: string | null }>;
  if (hostParam !== undefined && hostParam !== '') {
    specs = hostParam.split(',').map((h) => ({ host: encodeURIComponent(h), port: null }));
  } else {
    specs = hostList.split(',').map((spec, i) => splitHostPort(spec, i + 1));
  }
  const portList = portParam === undefined || portParam === '' ? [] : portParam.split(',');
  if (portList.length > 1 && portList.length !== specs.length) {
    throw new ConnectionUriError(`lists ${portList.length} ports in the port parameter for ${specs.length} hosts`);
  }
  const hosts = specs.map((s, i): HostPort => {
    const what = `host ${i + 1}`;
    const host = s.host === '' ? DEFAULT_HOST : decode(s.host, what);
    if (host.startsWith('/')) throw new ConnectionUriError(`names a Unix socket directory in ${what}; only TCP hosts are supported`);
    if (/[\s,/?#@]/.test(host)) throw new ConnectionUriError(`has an invalid character in ${what}`);
    const rawPort = s.port ?? (portList.length === 0 ? null : portList.length === 1 ? portList[0] : portList[i]);
    return { host, port: rawPort === null || rawPort === '' ? DEFAULT_PORT : parsePort(rawPort, what) };
  });

  const urlFor = (h: HostPort) =>
    `${scheme[0]}${userinfo === null ? '' : `${userinfo}@`}${h.host.includes(':') ? `[${h.host}]` : encodeURIComponent(h.host)}:${h.port}${path}` +
    (kept.length > 0 ? `?${kept.join('&')}` : '');
  return { hosts, targetSessionAttrs, singleHostUrl: urlFor(hosts[0]), urlFor };
}

/** `h:5432`, `[::1]:5432`: how a host is named in logs. */
export function hostLabel(h: HostPort): string {
  return h.host.includes(':') ? `[${h.host}]:${h.port}` : `${h.host}:${h.port}`;
}
