import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DestinationStream } from 'pino';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { type Applications, createApplications } from '../../src/bootstrap';
import type { AppConfig, DatabaseConfig } from '../../src/shared/config/app-config';
import type { Clock } from '../../src/shared/domain/clock';
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

/** PostgreSQL when TEST_DATABASE_URL is set (CI's second run), else an in-memory PGlite. */
export function testDatabase(): DatabaseConfig {
  const url = process.env.TEST_DATABASE_URL;
  return url ? { kind: 'postgres', url } : { kind: 'pglite', dataDir: null };
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
    webhookAllowPrivateNetworks: true,
    // off unless a test is about it: suites make hundreds of calls with one token
    rateLimitPerMinute: 0,
    redisUrl: null,
    redisKeyPrefix: 'partner-api-test:',
    maxConnections: 1000,
    secretsKey: TEST_SECRETS_KEY,
    shutdownGraceSeconds: 10,
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
  options: { clock?: Clock; logStream?: DestinationStream } = {},
): Promise<TestApp> {
  const apps = await createApplications(testConfig(overrides), options);
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
    close: () => apps.close(),
  };
}

/**
 * In place of `describe` for a block that needs PostgreSQL sessions: on PGlite the block declares no
 * tests at all (it runs in CI's PostgreSQL pass), rather than reporting skipped ones.
 */
export function describeNothing(_name: string, _body: () => void): void {}
