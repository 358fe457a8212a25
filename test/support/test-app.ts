import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DestinationStream } from 'pino';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { type Applications, createApplications } from '../../src/bootstrap';
import type { AppConfig, DatabaseConfig } from '../../src/shared/config/app-config';
import { EMBEDDED_STORE_NETWORKS, parseAllowedNetworks } from '../../src/shared/domain/allowed-networks';
import type { Clock } from '../../src/shared/domain/clock';
import type { HostResolver } from '../../src/shared/domain/host-resolver';
import { takeResponseMismatches, validateResponsesOf } from './response-validation';

// CONTRACT §13: every response a test receives validates against the checked-in document
const failOnMismatches = () => {
  const mismatches = takeResponseMismatches();
  if (mismatches.length > 0) throw new Error(`responses that do not match the OpenAPI documents:\n${mismatches.join('\n')}`);
};
afterEach(failOnMismatches);
afterAll(failOnMismatches);

export const TEST_CONSOLE_KEY = 'test-console-key-0123456789abcdef';
/** One SECRETS_KEY for every test app: suites share a database, as instances of one deployment do. */
export const TEST_SECRETS_KEY = `v1:${Buffer.alloc(32, 0x5a).toString('base64url')}`;

/**
 * PostgreSQL when TEST_DATABASE_URL is set — the jest worker's own database, chosen by
 * test/support/database-setup.js (TEST_DATABASE_URL, else a local server that answers; TEST_DATABASE=pglite
 * forces the embedded store) and copied from the run's migrated template —, else an in-memory PGlite that
 * starts from the run's migrated data directory (when the e2e project's globalSetup made one).
 */
export function testDatabase(): DatabaseConfig {
  const url = process.env.TEST_DATABASE_URL;
  if (url) return { kind: 'postgres', url };
  const template = process.env.PARTNER_TEST_PGLITE_TEMPLATE;
  return template ? { kind: 'pglite', dataDir: null, loadFrom: template } : { kind: 'pglite', dataDir: null };
}

/** The run's Redis (TEST_REDIS_URL, named in the e2e run's first line). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** A fresh Redis key prefix under the run's own (database-setup.js): a test never meets a key it did not write. */
export function testRedisPrefix(): string {
  return `${process.env.PARTNER_TEST_REDIS_PREFIX ?? 'partner-api-test:'}${randomUUID()}:`;
}

export const onPostgres = (): boolean => testDatabase().kind === 'postgres';

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    database: testDatabase(),
    dataDir: mkdtempSync(join(tmpdir(), 'partner-api-test-')),
    consolePort: 1, // any non-zero port: builds the console app (tests hand its server to supertest, nothing listens)
    consoleHost: '127.0.0.1',
    consoleApiKey: TEST_CONSOLE_KEY,
    publicOrigin: 'http://localhost:3000',
    idempotencyRetentionHours: 24,
    logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
    // the tests' receivers are on 127.0.0.1 (the embedded store's default, CONTRACT §2), the developers' too
    webhookAllowedNetworks: parseAllowedNetworks(EMBEDDED_STORE_NETWORKS),
    startWarnings: [],
    webhookEndpointConcurrency: 16,
    webhookRetentionDays: 30,
    requestLogRetentionDays: 7,
    // off unless a test is about it: suites make hundreds of calls with one token
    rateLimitPerMinute: 0,
    redisUrl: null,
    redisKeyPrefix: process.env.PARTNER_TEST_REDIS_PREFIX ?? 'partner-api-test:',
    maxConnections: 1000,
    maxInFlightPerToken: 32,
    secretsKey: TEST_SECRETS_KEY,
    shutdownGraceSeconds: 10,
    trustProxy: false,
    // the contract's default (CONTRACT §12): suites stay under it per app instance
    rateLimitAnonymousPerMinute: 300,
    developerSignup: 'open',
    serviceName: 'Partner API',
    smtpUrl: null,
    smtpFrom: 'Partner API <no-reply@localhost>',
    attachmentMaxBytes: 10_485_760,
    sandboxStorageMaxBytes: 1_073_741_824,
    ...overrides,
  };
}

export interface TestApp {
  apps: Applications;
  /** supertest against the partner listener */
  partner: () => TestAgent;
  /** supertest against the console listener, with the console key */
  console: () => TestAgent;
  close(): Promise<void>;
}

export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  options: { clock?: Clock; logStream?: DestinationStream; resolver?: HostResolver } = {},
): Promise<TestApp> {
  const config = testConfig(overrides);
  // the temporary data directory testConfig made goes with the app
  const removeDataDir = () => (overrides.dataDir === undefined ? rmSync(config.dataDir, { recursive: true, force: true }) : undefined);
  let apps: Applications;
  try {
    apps = await createApplications(config, options);
  } catch (err) {
    removeDataDir();
    throw err;
  }
  const partnerServer = apps.partner.getHttpServer();
  const consoleServer = apps.console?.getHttpServer();
  validateResponsesOf(partnerServer, 'partner');
  if (consoleServer) validateResponsesOf(consoleServer, 'console');
  return {
    apps,
    partner: () => request(partnerServer),
    console: () => {
      if (!consoleServer) throw new Error('console listener disabled');
      return request(consoleServer);
    },
    close: async () => {
      try {
        await apps.close();
      } finally {
        removeDataDir();
      }
    },
  };
}

export const SKIPPED_ON_PGLITE = 'SKIPPED on PGlite: needs PostgreSQL (several sessions); runs when PostgreSQL answers or TEST_DATABASE_URL is set';

/**
 * A block that needs PostgreSQL: on PGlite it is reported as skipped, with the reason in its name
 * (chosen when the file loads), never as a passing placeholder.
 */
export function describeOnPostgres(name: string, body: () => void): void {
  if (onPostgres()) describe(name, body);
  else describe.skip(`${name} — ${SKIPPED_ON_PGLITE}`, body);
}

/** One test that needs PostgreSQL, reported as skipped on PGlite. */
export function itOnPostgres(name: string, fn: () => Promise<unknown>, timeout?: number): void {
  if (onPostgres()) it(name, fn, timeout);
  else it.skip(`${name} — ${SKIPPED_ON_PGLITE}`, fn, timeout);
}

/** @deprecated kept for `(onPostgres() ? describe : describeNothing)(…)`: now reports the block as skipped. */
export function describeNothing(name: string, body: () => void): void {
  describe.skip(`${name} — ${SKIPPED_ON_PGLITE}`, body);
}
