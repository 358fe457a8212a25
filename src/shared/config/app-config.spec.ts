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
    // CONTRACT §2: on the embedded store, loopback; on PostgreSQL, nothing but public addresses
    expect(c.webhookAllowedNetworks.toString()).toBe('127.0.0.0/8,::1/128');
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/partner' }).webhookAllowedNetworks.toString()).toBe('');
    expect(c.startWarnings).toEqual([]);
    expect(c.shutdownGraceSeconds).toBe(10);
    expect(c.database.kind).toBe('pglite');
    expect(c.dataDir.endsWith('.data')).toBe(true);
    expect(c.rateLimitPerMinute).toBe(600);
    expect(c.redisUrl).toBeNull();
    expect(c.redisKeyPrefix).toBe('partner-api:');
    expect(c.maxConnections).toBe(1000);
    expect(c.secretsKey).toBeNull();
    expect(c.trustProxy).toBe(false);
    expect(c.rateLimitAnonymousPerMinute).toBe(300);
  });

  it('reads SANDBOX_STORAGE_MAX_BYTES (CONTRACT §2, §20): 1 GiB by default, 0 no limit, a bad value names the variable', () => {
    expect(loadConfig({}).sandboxStorageMaxBytes).toBe(1_073_741_824);
    expect(loadConfig({ SANDBOX_STORAGE_MAX_BYTES: '0' }).sandboxStorageMaxBytes).toBe(0);
    expect(loadConfig({ SANDBOX_STORAGE_MAX_BYTES: '5000000' }).sandboxStorageMaxBytes).toBe(5_000_000);
    for (const bad of ['-1', '1.5', '1GB']) expect(() => loadConfig({ SANDBOX_STORAGE_MAX_BYTES: bad })).toThrow(/^SANDBOX_STORAGE_MAX_BYTES must be/);
  });

  it('reads TRUST_PROXY as Express does (hop count, addresses, subnets) and RATE_LIMIT_ANONYMOUS_PER_MINUTE', () => {
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback,2001:db8::1' }).trustProxy).toBe('10.0.0.0/8,loopback,2001:db8::1');
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    for (const bad of ['proxy.example', '10.0.0.0/33', '10.0.0.1/8/1', '1,2']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/^TRUST_PROXY must be/);
    }
    expect(loadConfig({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '0' }).rateLimitAnonymousPerMinute).toBe(0);
    expect(() => loadConfig({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '-1' })).toThrow(/RATE_LIMIT_ANONYMOUS_PER_MINUTE/);
  });

  it('reads the abuse-resistance variables (CONTRACT §2, §8, §12)', () => {
    const key = `v2:${Buffer.alloc(32, 7).toString('base64')},v1:${Buffer.alloc(32, 1).toString('base64url')}`;
    const c = loadConfig({
      RATE_LIMIT_PER_MINUTE: '0',
      REDIS_URL: 'redis://127.0.0.1:6379/2',
      REDIS_KEY_PREFIX: 'run-42:',
      MAX_CONNECTIONS: '50',
      SECRETS_KEY: key,
    });
    expect(c.rateLimitPerMinute).toBe(0);
    expect(c.redisUrl).toBe('redis://127.0.0.1:6379/2');
    expect(c.redisKeyPrefix).toBe('run-42:');
    expect(c.maxConnections).toBe(50);
    expect(c.secretsKey).toBe(key);
  });

  describe('WEBHOOK_ALLOWED_NETWORKS (issue 43 finding 10)', () => {
    const refusal = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as Error).message;
      }
      return null;
    };

    it.each([
      ['169.254.0.0/16', '169.254.0.0/16 (link-local, cloud metadata)'],
      ['10.0.0.0/8, 169.254.169.254/32', '169.254.0.0/16 (link-local, cloud metadata)'],
      ['0.0.0.0/0', '0.0.0.0/8 (unspecified ("this network"))'],
      ['128.0.0.0/1', '169.254.0.0/16 (link-local, cloud metadata)'],
      ['fe80::/10', 'fe80::/10 (link-local)'],
      ['fe80::1', 'fe80::/10 (link-local)'],
      ['::/0', '::/128 (unspecified)'],
      ['fd00:ec2::254/128', 'fd00:ec2::254/128 (cloud metadata)'],
    ])('stops the start for %s, naming it', (listed, overlapped) => {
      const entry = listed.split(',').pop()!.trim();
      expect(refusal({ WEBHOOK_ALLOWED_NETWORKS: listed })).toBe(
        `WEBHOOK_ALLOWED_NETWORKS lists ${entry}, which overlaps ${overlapped}: no webhook may ever reach it`,
      );
    });

    it.each(['10.0.0.0/33', 'not-a-range', '10.0.0.0/8/1', 'fd00::/129', '10.0.0.0/x'])('refuses %s as no range', (listed) => {
      expect(refusal({ WEBHOOK_ALLOWED_NETWORKS: listed })).toBe(
        `WEBHOOK_ALLOWED_NETWORKS must be comma-separated CIDR ranges (e.g. 10.0.0.0/8,fd00::/8), got "${listed}"`,
      );
    });

    it('takes ranges and bare addresses; empty means public addresses only, even on the embedded store', () => {
      const c = loadConfig({ WEBHOOK_ALLOWED_NETWORKS: ' 10.0.0.0/8 , fd00::/8,192.168.1.5 ', DEVELOPER_SIGNUP: 'closed' });
      expect(c.webhookAllowedNetworks.toString()).toBe('10.0.0.0/8,fd00::/8,192.168.1.5');
      expect(c.startWarnings).toEqual([]);
      expect(loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '' }).webhookAllowedNetworks.toString()).toBe('');
    });

    it('warns at start of a private range listed while sign-up is open, not of loopback', () => {
      expect(loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/8,127.0.0.1,::1', DEVELOPER_SIGNUP: 'open' }).startWarnings).toEqual([
        'WEBHOOK_ALLOWED_NETWORKS lists private range(s) 10.0.0.0/8 while DEVELOPER_SIGNUP is open: anyone who signs up can have webhooks sent into them',
      ]);
      expect(loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128' }).startWarnings).toEqual([]);
    });

    it('ignores WEBHOOK_ALLOW_PRIVATE_NETWORKS (any value) with a warning naming the new variable', () => {
      for (const value of ['true', 'maybe']) {
        const c = loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: value, DATABASE_URL: 'postgres://db.example/partner' });
        expect(c.webhookAllowedNetworks.toString()).toBe('');
        expect(c.startWarnings).toEqual([
          'WEBHOOK_ALLOW_PRIVATE_NETWORKS is ignored (replaced in version 6): list the networks webhook endpoints may reach in WEBHOOK_ALLOWED_NETWORKS (comma-separated CIDR ranges; now "")',
        ]);
      }
    });
  });

  it('never echoes a bad SECRETS_KEY in its message', () => {
    let message = '';
    try {
      loadConfig({ SECRETS_KEY: 'v1:not-a-real-key-but-secret-material' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('SECRETS_KEY');
    expect(message).not.toContain('not-a-real-key-but-secret-material');
  });

  it('chooses the store from DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).database).toEqual({ kind: 'postgres', url: 'postgres://u@h:5432/db' });
    expect(loadConfig({ DATABASE_URL: 'pglite://memory' }).database).toEqual({ kind: 'pglite', dataDir: null });
  });

  it('takes several hosts in DATABASE_URL, and names the fault of a malformed one in one line without the password', () => {
    const url = 'postgres://u:pw@h1:5432,h2:5433/db?target_session_attrs=read-write';
    expect(loadConfig({ DATABASE_URL: url }).database).toEqual({ kind: 'postgres', url });
    let message = '';
    try {
      loadConfig({ DATABASE_URL: 'postgres://u:topsecret@h1:5432,h2:54b3/db?target_session_attrs=read-write' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toBe('DATABASE_URL has an invalid port for host 2 (a number from 1 to 65535)');
  });

  it.each([
    // issue 35 finding 6: these printed `invalid port "S3cr3tPa"` and `parameter without "=" ("x@db1:5432/partner")`
    ['postgres://partner:S3cr3tPa/x@db1:5432/partner'],
    ['postgres://partner:S3cr3tPa?x@db1:5432/partner'],
  ])('a password with an unencoded "/" or "?" (%s) stops the start with one line that says to percent-encode it and quotes nothing', (url) => {
    expect(() => loadConfig({ DATABASE_URL: url })).toThrow(
      new Error('DATABASE_URL has an "@" after a "/" or "?": percent-encode the password (/ as %2F, ? as %3F, @ as %40, # as %23)'),
    );
  });

  it('derives PUBLIC_ORIGIN from PORT and lets CONSOLE_PORT=0 disable the console', () => {
    const c = loadConfig({ PORT: '8080', CONSOLE_PORT: '0' });
    expect(c.publicOrigin).toBe('http://localhost:8080');
    expect(c.consolePort).toBe(0);
  });

  it('reads SHUTDOWN_GRACE_SECONDS in seconds, fractions allowed', () => {
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '3' }).shutdownGraceSeconds).toBe(3);
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '2.5' }).shutdownGraceSeconds).toBe(2.5);
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '' }).shutdownGraceSeconds).toBe(10);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['CONSOLE_PORT', '-1'],
    ['DATABASE_URL', 'mysql://x'],
    ['IDEMPOTENCY_RETENTION_HOURS', '0'],
    ['IDEMPOTENCY_RETENTION_HOURS', 'soon'],
    ['LOG_LEVEL', 'loud'],
    ['WEBHOOK_ALLOWED_NETWORKS', '10.0.0.0/99'],
    ['PUBLIC_ORIGIN', 'ftp://x'],
    ['CONSOLE_API_KEY', 'short'],
    ['RATE_LIMIT_PER_MINUTE', '-1'],
    ['RATE_LIMIT_PER_MINUTE', '1.5'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['MAX_CONNECTIONS', '0'],
    ['MAX_CONNECTIONS', 'many'],
    ['SECRETS_KEY', 'too-short'],
    ['SECRETS_KEY', `v1:${Buffer.alloc(16).toString('base64')}`],
    ['SHUTDOWN_GRACE_SECONDS', '0'],
    ['SHUTDOWN_GRACE_SECONDS', '-5'],
    ['SHUTDOWN_GRACE_SECONDS', 'ten'],
    ['SHUTDOWN_GRACE_SECONDS', '3601'],
    ['SMTP_URL', 'http://mail.example:25'],
    ['SMTP_URL', 'smtp://user:p@ss/word@mail.example:587'],
    ['SMTP_FROM', 'Partner API <a@b.dk>\r\nBcc: x@y.dk'],
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

describe('SMTP_URL (issue 35)', () => {
  it("takes smtp:// and smtps://, defaults the sender to the public origin's host, and is null when unset", () => {
    const c = loadConfig({ SMTP_URL: 'smtps://mailer:s3cret@mail.example:465', PUBLIC_ORIGIN: 'https://api.partner.dk' });
    expect(c.smtpUrl).toBe('smtps://mailer:s3cret@mail.example:465');
    expect(c.smtpFrom).toBe('Partner API <no-reply@api.partner.dk>');
    expect(loadConfig({}).smtpUrl).toBeNull();
  });

  it('never repeats the URL (it may hold a password) in its message', () => {
    expect(() => loadConfig({ SMTP_URL: 'ftp://mailer:S3cr3tPa@mail.example' })).toThrow(/^SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    try {
      loadConfig({ SMTP_URL: 'ftp://mailer:S3cr3tPa@mail.example' });
    } catch (e) {
      expect((e as Error).message).not.toContain('S3cr3tPa');
    }
  });
});
