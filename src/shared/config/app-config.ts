import { isIP } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { secretsKeyProblem } from '../crypto/secret-box';
import { type AllowedNetworks, EMBEDDED_STORE_NETWORKS, isLoopbackRange, NetworkListError, parseAllowedNetworks } from '../domain/allowed-networks';
import { ConnectionUriError, parseConnectionUri } from '../database/connection-uri';

export type DatabaseConfig =
  | { kind: 'postgres'; url: string }
  | {
      kind: 'pglite';
      dataDir: string | null /* null: in memory */;
      /** in memory only: a data directory dumped by PGlite's dumpDataDir to start from (the tests' migrated template) */
      loadFrom?: string;
    };

/** The service's configuration, read once from the environment (CONTRACT §2). */
export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  dataDir: string;
  consolePort: number; // 0 disables the console listener
  consoleHost: string;
  consoleApiKey: string | null; // null: generated into DATA_DIR on first start
  publicOrigin: string;
  idempotencyRetentionHours: number;
  logLevel: string;
  /**
   * CONTRACT §2 WEBHOOK_ALLOWED_NETWORKS: the ranges webhook endpoints (the operator's and the developers'
   * alike) may reach besides public addresses; by default loopback on the embedded store, none on PostgreSQL.
   */
  webhookAllowedNetworks: AllowedNetworks;
  /** What the configuration says that does not stop the start but the start log must (logged at warn). */
  startWarnings: string[];
  /** CONTRACT §9: sends in flight to one webhook endpoint at a time, across all instances (WEBHOOK_ENDPOINT_CONCURRENCY) */
  webhookEndpointConcurrency: number;
  /** CONTRACT §9: days events, deliveries and attempts are kept once nothing of them is pending (WEBHOOK_RETENTION_DAYS) */
  webhookRetentionDays: number;
  /** CONTRACT §15: days the developer console's request log keeps a call (REQUEST_LOG_RETENTION_DAYS); 0 turns the log off */
  requestLogRetentionDays: number;
  /** partner calls per token per minute (CONTRACT §12); 0: no limit */
  rateLimitPerMinute: number;
  /** redis://…: rate-limit counters shared by every instance; null: each instance counts alone */
  redisUrl: string | null;
  /** prefix of every Redis key of this service (several deployments or test runs on one Redis) */
  redisKeyPrefix: string;
  /** client connections one listener holds at most (CONTRACT §3) */
  maxConnections: number;
  /** CONTRACT §2, §20: requests of one token (or developer-console session) in flight at once on this instance (MAX_IN_FLIGHT_PER_TOKEN) */
  maxInFlightPerToken: number;
  /** SECRETS_KEY (one or more versioned keys, see secret-box.ts); null: generated into DATA_DIR */
  secretsKey: string | null;
  /** CONTRACT §3: how long a stopping instance lets requests in flight finish (SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceSeconds: number;
  /**
   * CONTRACT §2 TRUST_PROXY, Express's `trust proxy` value: false (the peer is the client), a hop
   * count, or the trusted proxies' addresses and subnets (comma-separated; `loopback`, `linklocal`,
   * `uniquelocal` name their ranges).
   */
  trustProxy: false | number | string;
  /** CONTRACT §12: calls without a known identity per client address per minute; 0: no limit */
  rateLimitAnonymousPerMinute: number;
  /** CONTRACT §2, §15: `open` lets anyone create a developer account; `closed` only the operator */
  developerSignup: 'open' | 'closed';
  /** CONTRACT §2, §18: the service's name on the consent pages and in the developer console */
  serviceName: string;
  /**
   * SMTP_URL (`smtp://user:password@host:587`, `smtps://…:465`): the server that sends the developer
   * sign-up confirmation emails; null: their links are written to the log at `warn` instead (issue 35).
   * Never logged: it may hold a password.
   */
  smtpUrl: string | null;
  /** SMTP_FROM: the sender of those emails; default `Partner API <no-reply@HOST of PUBLIC_ORIGIN>` */
  smtpFrom: string;
  /** CONTRACT §2, §17: the largest voucher attachment accepted, in bytes (ATTACHMENT_MAX_BYTES) */
  attachmentMaxBytes: number;
  /**
   * CONTRACT §2, §20: attachment bytes one sandbox project or one demo organization may hold
   * (SANDBOX_STORAGE_MAX_BYTES); 0 no limit. Production organizations have none.
   */
  sandboxStorageMaxBytes: number;
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function port(env: NodeJS.ProcessEnv, name: string, fallback: number, allowZero: boolean): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535 || (!allowZero && Number(raw) === 0)) {
    throw new ConfigError(`${name} must be a TCP port number${allowZero ? ' (0 disables it)' : ''}, got "${raw}"`);
  }
  return Number(raw);
}

const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** TRUST_PROXY as Express takes it; anything Express would not read as intended is refused at start. */
function trustProxy(env: NodeJS.ProcessEnv): false | number | string {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw === 'false') return false;
  if (/^\d{1,3}$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((e) => e.trim());
  for (const e of entries) {
    const [address, prefix, extra] = e.split('/');
    const family = isIP(address ?? '');
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (!(PROXY_RANGES.includes(e) || (family !== 0 && prefixOk && extra === undefined))) {
      throw new ConfigError(`TRUST_PROXY must be a hop count or proxy addresses/subnets (e.g. 10.0.0.0/8,loopback), got "${e}"`);
    }
  }
  return entries.join(',');
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < min) {
    throw new ConfigError(`${name} must be a whole number of at least ${min}, got "${raw}"`);
  }
  return Number(raw);
}

/**
 * Reads and validates CONTRACT §2's variables. A bad value throws a ConfigError whose message is one
 * line naming the variable; main.ts prints it and exits.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const portValue = port(env, 'PORT', 3000, true);
  const consolePort = port(env, 'CONSOLE_PORT', 3001, true);
  const dataDir = resolve(env.DATA_DIR && env.DATA_DIR !== '' ? env.DATA_DIR : './.data');

  let database: DatabaseConfig;
  const url = env.DATABASE_URL;
  if (url === undefined || url === '') {
    database = { kind: 'pglite', dataDir: resolve(dataDir, 'pglite') };
  } else if (url === 'pglite://memory') {
    database = { kind: 'pglite', dataDir: null };
  } else if (url.startsWith('pglite://')) {
    const dir = url.slice('pglite://'.length);
    if (dir === '') throw new ConfigError('DATABASE_URL pglite:// needs a directory or "memory"');
    database = { kind: 'pglite', dataDir: isAbsolute(dir) ? dir : resolve(dir) };
  } else if (/^postgres(ql)?:\/\//.test(url)) {
    // libpq's grammar, several hosts included (CONTRACT §16); the fault never quotes the password
    try {
      parseConnectionUri(url);
    } catch (err) {
      if (err instanceof ConnectionUriError) throw new ConfigError(`DATABASE_URL ${err.message}`);
      throw err;
    }
    database = { kind: 'postgres', url };
  } else {
    throw new ConfigError('DATABASE_URL must be postgres://…, pglite://memory or unset');
  }

  const host = env.HOST && env.HOST !== '' ? env.HOST : '0.0.0.0';
  const consoleHost = env.CONSOLE_HOST && env.CONSOLE_HOST !== '' ? env.CONSOLE_HOST : '127.0.0.1';

  const consoleApiKey = env.CONSOLE_API_KEY && env.CONSOLE_API_KEY !== '' ? env.CONSOLE_API_KEY : null;
  if (consoleApiKey !== null && !/^[\x21-\x7e]{16,256}$/.test(consoleApiKey)) {
    throw new ConfigError('CONSOLE_API_KEY must be 16–256 visible ASCII characters');
  }

  let publicOrigin = env.PUBLIC_ORIGIN && env.PUBLIC_ORIGIN !== '' ? env.PUBLIC_ORIGIN : `http://localhost:${portValue}`;
  try {
    const u = new URL(publicOrigin);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    publicOrigin = publicOrigin.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(`PUBLIC_ORIGIN must be an http(s) origin, got "${publicOrigin}"`);
  }

  const retentionRaw = env.IDEMPOTENCY_RETENTION_HOURS;
  let idempotencyRetentionHours = 24;
  if (retentionRaw !== undefined && retentionRaw !== '') {
    if (!/^\d+(\.\d+)?$/.test(retentionRaw) || Number(retentionRaw) <= 0) {
      throw new ConfigError(`IDEMPOTENCY_RETENTION_HOURS must be a positive number of hours, got "${retentionRaw}"`);
    }
    idempotencyRetentionHours = Number(retentionRaw);
  }

  const graceRaw = env.SHUTDOWN_GRACE_SECONDS;
  let shutdownGraceSeconds = 10;
  if (graceRaw !== undefined && graceRaw !== '') {
    if (!/^\d+(\.\d+)?$/.test(graceRaw) || Number(graceRaw) < 1 || Number(graceRaw) > 3600) {
      throw new ConfigError(`SHUTDOWN_GRACE_SECONDS must be a number of seconds from 1 to 3600, got "${graceRaw}"`);
    }
    shutdownGraceSeconds = Number(graceRaw);
  }

  const logLevel = env.LOG_LEVEL && env.LOG_LEVEL !== '' ? env.LOG_LEVEL : 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }

  const rateLimitPerMinute = integer(env, 'RATE_LIMIT_PER_MINUTE', 600, 0);
  const maxConnections = integer(env, 'MAX_CONNECTIONS', 1000, 1);
  const redisUrl = env.REDIS_URL && env.REDIS_URL !== '' ? env.REDIS_URL : null;
  if (redisUrl !== null) {
    let ok = false;
    try {
      ok = ['redis:', 'rediss:'].includes(new URL(redisUrl).protocol);
    } catch {
      ok = false;
    }
    if (!ok) throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL');
  }
  const redisKeyPrefix = env.REDIS_KEY_PREFIX && env.REDIS_KEY_PREFIX !== '' ? env.REDIS_KEY_PREFIX : 'partner-api:';
  if (!/^[\x21-\x7e]{1,100}$/.test(redisKeyPrefix)) throw new ConfigError('REDIS_KEY_PREFIX must be 1–100 visible ASCII characters');
  const secretsKey = env.SECRETS_KEY && env.SECRETS_KEY !== '' ? env.SECRETS_KEY : null;
  if (secretsKey !== null) {
    const problem = secretsKeyProblem(secretsKey);
    // the message names the rule, never the value
    if (problem) throw new ConfigError(`SECRETS_KEY ${problem}`);
  }

  const developerSignup = env.DEVELOPER_SIGNUP && env.DEVELOPER_SIGNUP !== '' ? env.DEVELOPER_SIGNUP : 'open';
  if (developerSignup !== 'open' && developerSignup !== 'closed') {
    throw new ConfigError(`DEVELOPER_SIGNUP must be open or closed, got "${developerSignup}"`);
  }
  const startWarnings: string[] = [];
  const networksRaw = env.WEBHOOK_ALLOWED_NETWORKS ?? (database.kind === 'pglite' ? EMBEDDED_STORE_NETWORKS : '');
  let webhookAllowedNetworks: AllowedNetworks;
  try {
    webhookAllowedNetworks = parseAllowedNetworks(networksRaw);
  } catch (err) {
    if (err instanceof NetworkListError) throw new ConfigError(`WEBHOOK_ALLOWED_NETWORKS ${err.message}`);
    throw err;
  }
  if (env.WEBHOOK_ALLOW_PRIVATE_NETWORKS !== undefined && env.WEBHOOK_ALLOW_PRIVATE_NETWORKS !== '') {
    startWarnings.push(
      `WEBHOOK_ALLOW_PRIVATE_NETWORKS is ignored (replaced in version 6): list the networks webhook endpoints may reach in WEBHOOK_ALLOWED_NETWORKS (comma-separated CIDR ranges; now "${webhookAllowedNetworks.toString()}")`,
    );
  }
  const beyondThisMachine = webhookAllowedNetworks.ranges.filter((r) => !isLoopbackRange(r)).map((r) => r.text);
  if (beyondThisMachine.length > 0 && developerSignup === 'open') {
    startWarnings.push(
      `WEBHOOK_ALLOWED_NETWORKS lists private range(s) ${beyondThisMachine.join(', ')} while DEVELOPER_SIGNUP is open: anyone who signs up can have webhooks sent into them`,
    );
  }

  const smtpUrl = env.SMTP_URL && env.SMTP_URL !== '' ? env.SMTP_URL : null;
  if (smtpUrl !== null) {
    let ok = false;
    try {
      const u = new URL(smtpUrl);
      // an @ after the host: a password with an unencoded / or ? in it split the URL in the wrong place
      ok = ['smtp:', 'smtps:'].includes(u.protocol) && u.hostname !== '' && !`${u.pathname}${u.search}${u.hash}`.includes('@');
    } catch {
      ok = false;
    }
    // the message names the rule, never the value (it may hold a password)
    if (!ok) throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL (percent-encode a password with @, / or :)');
  }
  const smtpFrom = env.SMTP_FROM && env.SMTP_FROM !== '' ? env.SMTP_FROM : `Partner API <no-reply@${new URL(publicOrigin).hostname}>`;
  if (/[\r\n]/.test(smtpFrom) || smtpFrom.length > 300) throw new ConfigError('SMTP_FROM must be one line of at most 300 characters');

  return {
    port: portValue,
    host,
    database,
    dataDir,
    consolePort,
    consoleHost,
    consoleApiKey,
    publicOrigin,
    idempotencyRetentionHours,
    logLevel,
    webhookAllowedNetworks,
    startWarnings,
    webhookEndpointConcurrency: integer(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 16, 1),
    webhookRetentionDays: integer(env, 'WEBHOOK_RETENTION_DAYS', 30, 1),
    requestLogRetentionDays: integer(env, 'REQUEST_LOG_RETENTION_DAYS', 7, 0),
    rateLimitPerMinute,
    redisUrl,
    redisKeyPrefix,
    maxConnections,
    maxInFlightPerToken: integer(env, 'MAX_IN_FLIGHT_PER_TOKEN', 32, 1),
    secretsKey,
    shutdownGraceSeconds,
    trustProxy: trustProxy(env),
    rateLimitAnonymousPerMinute: integer(env, 'RATE_LIMIT_ANONYMOUS_PER_MINUTE', 300, 0),
    developerSignup,
    serviceName: serviceName(env),
    smtpUrl,
    smtpFrom,
    attachmentMaxBytes: integer(env, 'ATTACHMENT_MAX_BYTES', 10_485_760, 1),
    sandboxStorageMaxBytes: integer(env, 'SANDBOX_STORAGE_MAX_BYTES', 1_073_741_824, 0),
  };
}

/** CONTRACT §2 SERVICE_NAME: shown as text on every page (escaped there); 1–100 characters, no control characters. */
function serviceName(env: NodeJS.ProcessEnv): string {
  const raw = env.SERVICE_NAME;
  if (raw === undefined || raw.trim() === '') return 'Partner API';
  const name = raw.trim();
  if ([...name].length > 100 || /[\u0000-\u001f\u007f]/.test(name)) throw new ConfigError('SERVICE_NAME must be 1–100 characters without control characters');
  return name;
}

export const APP_CONFIG = Symbol('APP_CONFIG');
