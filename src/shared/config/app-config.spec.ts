import { ConfigError, loadConfig } from './app-config';

describe('loadConfig (CONTRACT §2)', () => {
  it('has the contract defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.host).toBe('0.0.0.0');
    expect(c.consolePort).toBe(3001);
    expect(c.consoleHost).toBe('127.0.0.1');
    expect(c.consoleApiKey).toBeNull();
    expect(c.publicOrigin).toBe('http://localhost:3000');
    expect(c.idempotencyRetentionHours).toBe(24);
    expect(c.logLevel).toBe('info');
    expect(c.webhookAllowPrivateNetworks).toBe(false);
    expect(c.database.kind).toBe('pglite');
    expect(c.dataDir.endsWith('.data')).toBe(true);
  });

  it('chooses the store from DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).database).toEqual({ kind: 'postgres', url: 'postgres://u@h:5432/db' });
    expect(loadConfig({ DATABASE_URL: 'pglite://memory' }).database).toEqual({ kind: 'pglite', dataDir: null });
  });

  it('derives PUBLIC_ORIGIN from PORT and lets CONSOLE_PORT=0 disable the console', () => {
    const c = loadConfig({ PORT: '8080', CONSOLE_PORT: '0' });
    expect(c.publicOrigin).toBe('http://localhost:8080');
    expect(c.consolePort).toBe(0);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['CONSOLE_PORT', '-1'],
    ['DATABASE_URL', 'mysql://x'],
    ['IDEMPOTENCY_RETENTION_HOURS', '0'],
    ['IDEMPOTENCY_RETENTION_HOURS', 'soon'],
    ['LOG_LEVEL', 'loud'],
    ['WEBHOOK_ALLOW_PRIVATE_NETWORKS', 'maybe'],
    ['PUBLIC_ORIGIN', 'ftp://x'],
    ['CONSOLE_API_KEY', 'short'],
  ])('refuses %s=%s with a one-line message naming it', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(name);
    expect((error as Error).message).not.toContain('\n');
  });
});
