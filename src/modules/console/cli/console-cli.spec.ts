import { join } from 'node:path';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readFileSync } from 'node:fs';
import { connection, parseArgs, plan, run, usage, UsageError } from './console-cli';

const ORG = '11111111-1111-4111-8111-111111111111';

describe('parseArgs', () => {
  it('reads words, --name value and --name=value', () => {
    expect(parseArgs(['grant', 'create', '--org', ORG, '--scopes=journal:prepare,products:create'])).toEqual({
      words: ['grant', 'create'],
      options: { org: ORG, scopes: 'journal:prepare,products:create' },
    });
  });

  it('refuses an option without a value', () => {
    expect(() => parseArgs(['org', 'create', '--name'])).toThrow(UsageError);
    expect(() => parseArgs(['org', 'create', '--name', '--other', 'x'])).toThrow(UsageError);
  });
});

describe('plan', () => {
  it.each<[string[], string, Record<string, unknown>]>([
    [['sandbox', 'provision'], '/sandbox/projects', {}],
    [['sandbox', 'provision', '--name', 'Mit projekt'], '/sandbox/projects', { name: 'Mit projekt' }],
    [['sandbox', 'generation', 'p-1'], '/sandbox/projects/p-1/generations', {}],
    [['org', 'create', '--name', 'Bager ApS'], '/organizations', { name: 'Bager ApS' }],
    [['account', 'create', '--org', ORG, '--number', '1000', '--name', 'Salg'], `/organizations/${ORG}/accounts`, { number: '1000', name: 'Salg' }],
    [['account', 'deactivate', 'acc-1'], '/accounts/acc-1/deactivate', {}],
    [['account', 'deactivate', '--account', 'acc-1'], '/accounts/acc-1/deactivate', {}],
    [
      ['tax-code', 'create', '--org', ORG, '--code', 'U25', '--rate-basis-points', '2500'],
      `/organizations/${ORG}/tax-codes`,
      { code: 'U25', rate_basis_points: 2500 },
    ],
    [['owner', 'enrol', '--org', ORG, '--email', 'ejer@example.dk'], `/organizations/${ORG}/owners`, { email: 'ejer@example.dk' }],
    [['app', 'create', '--name', 'Kasse'], '/apps', { name: 'Kasse' }],
    [['revision', 'create', '--app', 'app-1'], '/apps/app-1/revisions', {}],
    [['revision', 'approve', '--app', 'app-1', '--revision', 'rev-1'], '/apps/app-1/revisions/rev-1/approve', {}],
    [['publisher', 'verify', '--app', 'app-1'], '/apps/app-1/publisher-verification', {}],
    [['publisher', 'verify', '--app', 'app-1', '--cvr', '10150817'], '/apps/app-1/publisher-verification', { cvr: '10150817' }],
    [
      [
        'grant',
        'create',
        '--org',
        ORG,
        '--app',
        'app-1',
        '--owner',
        'u-1',
        '--totp',
        '012345',
        '--accounts',
        'a, b,',
        '--scopes',
        'journal:prepare,products:create',
        '--duration',
        '3600',
      ],
      `/organizations/${ORG}/grants`,
      {
        app_id: 'app-1',
        owner_user_id: 'u-1',
        totp_code: '012345',
        account_ids: ['a', 'b'],
        scopes: ['journal:prepare', 'products:create'],
        duration_seconds: 3600,
      },
    ],
    [
      ['grant', 'create', '--org', ORG, '--app', 'app-1', '--owner', 'u-1', '--accounts', 'a', '--scopes', 'journal:prepare'],
      `/organizations/${ORG}/grants`,
      { app_id: 'app-1', owner_user_id: 'u-1', account_ids: ['a'], scopes: ['journal:prepare'] },
    ],
    [['grant', 'revoke', 'g-1'], '/grants/g-1/revoke', {}],
    [['token', 'issue', 'g-1'], '/grants/g-1/tokens', {}],
    [['token', 'issue', '--grant', 'g-1'], '/grants/g-1/tokens', {}],
    [
      ['mandate', 'create', '--org', ORG, '--app', 'app-1', '--owner', 'u-1', '--totp', '654321'],
      `/organizations/${ORG}/mandates`,
      { app_id: 'app-1', owner_user_id: 'u-1', totp_code: '654321' },
    ],
    [['mandate', 'revoke', 'm-1'], '/mandates/m-1/revoke', {}],
    [['owner', 'enrol', '--org', ORG, '--email', 'e@x.dk'], `/organizations/${ORG}/owners`, { email: 'e@x.dk' }],
    [
      ['oauth', 'register', '--app', 'app-1', '--redirect-uris', 'http://127.0.0.1:8765/cb,https://x.dk/cb'],
      '/apps/app-1/oauth',
      { redirect_uris: ['http://127.0.0.1:8765/cb', 'https://x.dk/cb'] },
    ],
    [['period', 'close', '--org', ORG, '--period', '2026-10'], `/organizations/${ORG}/periods/2026-10/close`, {}],
    [
      ['webhook', 'create', '--app', 'app-1', '--url', 'https://x.dk/h', '--environment', 'sandbox'],
      '/apps/app-1/webhook-endpoints',
      { url: 'https://x.dk/h', environment: 'sandbox' },
    ],
    [['webhook', 'enable', 'e-1'], '/webhook-endpoints/e-1/enable', {}],
    [['webhook', 'resend', '--event', 'ev-1', '--endpoint', 'e-1'], '/webhook-deliveries/ev-1/e-1/resend', {}],
    [['webhook', 'rotate-secret', 'e-1'], '/webhook-endpoints/e-1/rotate-secret', {}],
    [['webhook', 'recover', 'e-1', '--since', '2026-11-25T08:00:00Z'], '/webhook-endpoints/e-1/recover', { since: '2026-11-25T08:00:00Z' }],
    [['webhook', 'test', 'e-1'], '/webhook-endpoints/e-1/test', {}],
  ])('%j → POST %s', (argv, path, body) => {
    expect(plan(argv)).toEqual({ kind: 'call', call: { path, body } });
  });

  it.each<[string[], string]>([
    [['org', 'show', ORG], `/organizations/${ORG}`],
    [['app', 'show', 'app-1'], '/apps/app-1'],
    [['grant', 'list', ORG], `/organizations/${ORG}/grants`],
    [['webhook', 'deliveries', 'app-1'], '/apps/app-1/webhook-deliveries'],
    [['webhook', 'deliveries', 'app-1', '--limit', '5'], '/apps/app-1/webhook-deliveries?limit=5'],
  ])('%j → GET %s', (argv, path) => {
    expect(plan(argv)).toEqual({ kind: 'call', call: { method: 'GET', path, body: {} } });
  });

  it('has a command, listed in the help, for every call of the console API (openapi/console.json)', () => {
    const document = JSON.parse(readFileSync(join(__dirname, '../../../../openapi/console.json'), 'utf8')) as { paths: Record<string, object> };
    const help = usage()
      .split('\n')
      .filter((l) => l.startsWith('  '))
      .map((l) => l.trim())
      .filter((l) => !l.startsWith('totp ')); // local
    // each help line, with a value for each of its placeholders, planned as the user would type it
    const planned = help.map((line) => {
      const argv = line
        .split('   (')[0]
        .replace(/\[(--\w[\w-]*) [^\]]*\]/g, '')
        .replace(/\[--\w[\w-]*\]/g, '')
        .split(/\s+/)
        .filter((w) => w !== '')
        .map((w) =>
          /^<.*>$/.test(w) ? 'id-1' : w === 'YYYY-MM' ? '2026-10' : /^[A-Z][A-Z_,.…|0-9a-z:]*$/.test(w) || w.includes('|') || w.includes('…') ? 'v' : w,
        );
      // a password comes besides the arguments (OWNER_PASSWORD or stdin)
      const p = plan(argv, Date.now(), { password: 'en lang sætning' });
      return p.kind === 'call' ? `${(p.call.method ?? 'POST').toLowerCase()} ${p.call.path.split('?')[0]}` : null;
    });
    const missing: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      const pattern = new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
      for (const method of Object.keys(item)) {
        if (!planned.some((call) => call !== null && call.startsWith(`${method} `) && pattern.test(call.slice(method.length + 1))))
          missing.push(`${method} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('keeps a code with a leading zero a string, and sends a non-number duration as typed', () => {
    const p = plan([
      'grant',
      'create',
      '--org',
      ORG,
      '--app',
      'a',
      '--owner',
      'u',
      '--totp',
      '000123',
      '--accounts',
      'x',
      '--scopes',
      's',
      '--duration',
      '1e3',
    ]);
    expect(p).toMatchObject({ call: { body: { totp_code: '000123', duration_seconds: '1e3' } } });
  });

  it('escapes ids in the path', () => {
    expect(plan(['grant', 'revoke', '../x?y'])).toEqual({ kind: 'call', call: { path: '/grants/..%2Fx%3Fy/revoke', body: {} } });
  });

  it('computes a TOTP code locally (RFC 6238 Appendix B, 59 s → 94287082, six digits)', () => {
    // the RFC's ASCII key "12345678901234567890" in base32
    expect(plan(['totp', 'code'], 59_000, { totpSecret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' })).toEqual({ kind: 'local', output: '287082' });
    expect(plan(['totp', 'code'], 59_000, { totpSecret: 'gezd gnbv gy3t qojq gezd gnbv gy3t qojq' })).toEqual({ kind: 'local', output: '287082' });
  });

  it('--next gives the code of the next 30 s step and when it begins (RFC 6238 Appendix B: 1111111111 s → 14050471)', () => {
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    // 1111111100 s is in the step that began at 1111111080 s; the next begins at 1111111110 s
    expect(plan(['totp', 'code', '--next'], 1_111_111_100_000, { totpSecret: secret })).toEqual({ kind: 'local', output: '050471', at: 1_111_111_110_000 });
    expect(plan(['totp', 'code'], 1_111_111_109_000, { totpSecret: secret })).toEqual({ kind: 'local', output: '081804' });
  });

  it.each([
    [['nope', 'create']],
    [['org', 'create']],
    [['org', 'create', '--name', 'x', '--colour', 'red']],
    [['grant', 'revoke', 'a', 'b']],
    [['org', 'create', 'extra', '--name', 'x']],
  ])('refuses %j with a usage error', (argv) => {
    expect(() => plan(argv)).toThrow(UsageError);
  });

  it('never takes the TOTP secret as an argument (ps, shell history): --secret is refused, saying where it goes', () => {
    expect(() => plan(['totp', 'code', '--secret', 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'], 59_000, {})).toThrow(/TOTP_SECRET or on stdin/);
    expect(() => plan(['totp', 'code'], 59_000, {})).toThrow(/TOTP_SECRET or stdin/);
    expect(() => plan(['totp', 'code'], 59_000, { totpSecret: 'not base32!' })).toThrow(UsageError);
  });

  it('shows help without a command', () => {
    expect(plan([])).toEqual({ kind: 'help' });
    expect(plan(['help'])).toEqual({ kind: 'help' });
  });
});

describe('connection', () => {
  it('uses CONSOLE_HOST, CONSOLE_PORT and CONSOLE_API_KEY', () => {
    expect(connection({ CONSOLE_HOST: '10.0.0.5', CONSOLE_PORT: '4001', CONSOLE_API_KEY: 'k'.repeat(20) })).toEqual({
      baseUrl: 'http://10.0.0.5:4001/console/v1',
      apiKey: 'k'.repeat(20),
    });
  });

  it('defaults to 127.0.0.1:3001 and the key file in DATA_DIR', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-test-'));
    writeFileSync(join(dir, 'console-api-key'), 'ck_from_file\n');
    expect(connection({ DATA_DIR: dir })).toEqual({ baseUrl: 'http://127.0.0.1:3001/console/v1', apiKey: 'ck_from_file' });
  });

  it('says so when there is no key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-test-'));
    expect(() => connection({ DATA_DIR: dir })).toThrow(/CONSOLE_API_KEY/);
  });
});

describe('run', () => {
  it('totp code --next waits until the next step begins, then prints its code', async () => {
    const out: string[] = [];
    const waits: number[] = [];
    const code = await run(['totp', 'code', '--next'], {
      out: (t) => out.push(t),
      err: () => undefined,
      fetch: (() => {
        throw new Error('no network');
      }) as unknown as typeof fetch,
      env: {},
      stdin: async () => 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ\n',
      nowMs: () => 1_111_111_100_000,
      sleep: async (ms) => {
        expect(out).toEqual([]); // nothing printed before the wait is over
        waits.push(ms);
      },
    });
    expect(code).toBe(0);
    expect(waits).toEqual([10_000]);
    expect(out).toEqual(['050471\n']);
  });

  function io(response: { status: number; body: string } | Error) {
    const out: string[] = [];
    const err: string[] = [];
    const requests: Array<{ url: string; init: RequestInit }> = [];
    const fetchStub = (async (url: string, init: RequestInit) => {
      requests.push({ url, init });
      if (response instanceof Error) throw response;
      return new Response(response.body, { status: response.status });
    }) as unknown as typeof fetch;
    return {
      out,
      err,
      requests,
      io: {
        out: (t: string) => out.push(t),
        err: (t: string) => err.push(t),
        fetch: fetchStub,
        env: { CONSOLE_API_KEY: 'key-0123456789abcdef', CONSOLE_PORT: '3999' },
      },
    };
  }

  it('POSTs JSON with the key and prints the answer; exit 0', async () => {
    const t = io({ status: 201, body: '{"id":"o-1"}' });
    expect(await run(['org', 'create', '--name', 'Bager ApS'], t.io)).toBe(0);
    expect(t.requests).toHaveLength(1);
    expect(t.requests[0].url).toBe('http://127.0.0.1:3999/console/v1/organizations');
    expect(t.requests[0].init.method).toBe('POST');
    expect(t.requests[0].init.headers).toEqual({ Authorization: 'Bearer key-0123456789abcdef', 'Content-Type': 'application/json' });
    expect(JSON.parse(String(t.requests[0].init.body))).toEqual({ name: 'Bager ApS' });
    expect(JSON.parse(t.out.join(''))).toEqual({ id: 'o-1' });
  });

  it('revision pending GETs the review queue with the key and no body', async () => {
    const t = io({ status: 200, body: '[{"app_id":"a-1","app_name":"Kassen","revision_id":"r-1","number":1,"submitted_at":"2026-11-20T12:00:00.000Z"}]' });
    expect(await run(['revision', 'pending'], t.io)).toBe(0);
    expect(t.requests).toHaveLength(1);
    expect(t.requests[0].url).toBe('http://127.0.0.1:3999/console/v1/revisions?pending=true');
    expect(t.requests[0].init.method).toBe('GET');
    expect(t.requests[0].init.headers).toEqual({ Authorization: 'Bearer key-0123456789abcdef' });
    expect(t.requests[0].init.body).toBeUndefined();
    expect(JSON.parse(t.out.join(''))[0].app_name).toBe('Kassen');
  });

  it('prints an error answer on stderr; exit 1', async () => {
    const t = io({ status: 404, body: '{"code":"not_found"}' });
    expect(await run(['grant', 'revoke', 'g-1'], t.io)).toBe(1);
    expect(t.out).toEqual([]);
    expect(JSON.parse(t.err.join(''))).toEqual({ code: 'not_found' });
  });

  it('says when the console cannot be reached; exit 1', async () => {
    const t = io(new Error('connect ECONNREFUSED'));
    expect(await run(['grant', 'revoke', 'g-1'], t.io)).toBe(1);
    expect(t.err.join('')).toContain('cannot reach the console API at http://127.0.0.1:3999/console/v1');
    // the likely cause and the remedy
    expect(t.err.join('')).toContain('Is the service running? Start it in the project folder with `npm start`');
  });

  it('exits 2 on a usage error without calling the server', async () => {
    const t = io({ status: 201, body: '{}' });
    expect(await run(['org', 'create'], t.io)).toBe(2);
    expect(t.requests).toEqual([]);
    expect(t.err.join('')).toContain('missing --name');
  });
});

describe('issue 35 finding 10: owner passwords are never arguments (ps, shell history)', () => {
  it.each([
    [['owner', 'enrol', '--org', ORG, '--email', 'e@x.dk', '--password', 'en lang sætning']],
    [['owner', 'password', 'u-1', '--password', 'en lang sætning']],
    [['owner', 'password', 'u-1', '--password=en lang sætning']],
  ])('%j is refused, saying where the password goes', (argv) => {
    expect(() => plan(argv, 0, { password: 'en lang sætning' })).toThrow(
      new UsageError(
        '--password is not taken: a password on the command line shows in ps and shell history; pass it in OWNER_PASSWORD, or on stdin with --password-stdin',
      ),
    );
  });

  it('plans the call with the password it was given besides the arguments', () => {
    expect(plan(['owner', 'enrol', '--org', ORG, '--email', 'e@x.dk'], 0, { password: 'en lang sætning' })).toEqual({
      kind: 'call',
      call: { path: `/organizations/${ORG}/owners`, body: { email: 'e@x.dk', password: 'en lang sætning' } },
    });
    expect(plan(['owner', 'password', 'u-1', '--password-stdin'], 0, { password: 'en lang sætning' })).toEqual({
      kind: 'call',
      call: { path: '/users/u-1/password', body: { password: 'en lang sætning' } },
    });
    expect(() => plan(['owner', 'password', 'u-1'], 0, {})).toThrow(/OWNER_PASSWORD or, with --password-stdin, from stdin/);
  });

  const sent = async (argv: string[], env: NodeJS.ProcessEnv, stdin: string | null) => {
    const bodies: unknown[] = [];
    const errors: string[] = [];
    const code = await run(argv, {
      out: () => undefined,
      err: (t: string) => errors.push(t),
      fetch: (async (_url: string, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)));
        return new Response('{}', { status: 200 });
      }) as unknown as typeof fetch,
      env: { CONSOLE_API_KEY: 'k', ...env },
      ...(stdin === null ? {} : { stdin: async () => stdin }),
    });
    return { code, bodies, errors };
  };

  it('run reads it from OWNER_PASSWORD, else from stdin with --password-stdin (one trailing line break dropped)', async () => {
    expect(await sent(['owner', 'password', 'u-1'], { OWNER_PASSWORD: 'fra miljøet, lang nok' }, 'not read')).toEqual({
      code: 0,
      bodies: [{ password: 'fra miljøet, lang nok' }],
      errors: [],
    });
    expect(await sent(['owner', 'password', 'u-1', '--password-stdin'], {}, 'fra stdin, lang nok\n')).toEqual({
      code: 0,
      bodies: [{ password: 'fra stdin, lang nok' }],
      errors: [],
    });
    expect(await sent(['owner', 'enrol', '--org', ORG, '--email', 'e@x.dk', '--password-stdin'], {}, 'fra stdin, lang nok\r\n')).toEqual({
      code: 0,
      bodies: [{ email: 'e@x.dk', password: 'fra stdin, lang nok' }],
      errors: [],
    });
    // enrol without either: no password, stdin untouched
    expect(await sent(['owner', 'enrol', '--org', ORG, '--email', 'e@x.dk'], {}, 'not read')).toEqual({ code: 0, bodies: [{ email: 'e@x.dk' }], errors: [] });
  });

  it('run: a password as an argument is a usage error (2) and nothing is sent', async () => {
    const r = await sent(['owner', 'password', 'u-1', '--password', 'hemmelig sætning'], {}, null);
    expect([r.code, r.bodies]).toEqual([2, []]);
    expect(r.errors.join('')).not.toContain('hemmelig');
  });
});

describe('run: the TOTP secret of totp code', () => {
  const io = (env: NodeJS.ProcessEnv, stdin: string | null, out: string[]) => ({
    out: (t: string) => out.push(t),
    err: () => undefined,
    fetch: (() => {
      throw new Error('no network');
    }) as unknown as typeof fetch,
    env,
    nowMs: () => 59_000,
    ...(stdin === null ? {} : { stdin: async () => stdin }),
  });

  it('reads it from TOTP_SECRET, else from stdin', async () => {
    const out: string[] = [];
    expect(await run(['totp', 'code'], io({ TOTP_SECRET: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' }, 'ignored', out))).toBe(0);
    expect(await run(['totp', 'code'], io({}, 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ\n', out))).toBe(0);
    expect(out).toEqual(['287082\n', '287082\n']);
  });

  it('is a usage error (2) when neither holds one', async () => {
    expect(await run(['totp', 'code'], io({}, '', []))).toBe(2);
  });
});

describe('run: the password of developer create (issue 35)', () => {
  const io = (env: NodeJS.ProcessEnv, stdin: string | null) => {
    const requests: Array<{ url: string; body: unknown }> = [];
    const err: string[] = [];
    const fetchStub = (async (url: string, init: RequestInit) => {
      requests.push({ url, body: JSON.parse(String(init.body)) });
      return new Response('{"id":"d-1"}', { status: 201 });
    }) as unknown as typeof fetch;
    return {
      requests,
      err,
      io: {
        out: () => undefined,
        err: (t: string) => err.push(t),
        fetch: fetchStub,
        env: { CONSOLE_API_KEY: 'key-0123456789abcdef', CONSOLE_PORT: '3999', ...env },
        ...(stdin === null ? {} : { stdin: async () => stdin }),
      },
    };
  };

  it('POSTs /console/v1/developers with the password from DEVELOPER_PASSWORD, else from stdin (its line break dropped)', async () => {
    const a = io({ DEVELOPER_PASSWORD: 'from the environment' }, 'ignored');
    expect(await run(['developer', 'create', '--email', 'dev@partner.dk'], a.io)).toBe(0);
    expect(a.requests).toEqual([{ url: 'http://127.0.0.1:3999/console/v1/developers', body: { email: 'dev@partner.dk', password: 'from the environment' } }]);
    const b = io({}, 'typed on stdin  \n');
    expect(await run(['developer', 'create', '--email', 'dev@partner.dk'], b.io)).toBe(0);
    expect(b.requests[0].body).toEqual({ email: 'dev@partner.dk', password: 'typed on stdin  ' });
  });

  it('never takes the password as an argument, and is a usage error (2) without one', async () => {
    const a = io({}, '');
    expect(await run(['developer', 'create', '--email', 'dev@partner.dk'], a.io)).toBe(2);
    expect(a.err.join('')).toContain('DEVELOPER_PASSWORD or stdin');
    const b = io({}, 'x');
    expect(await run(['developer', 'create', '--email', 'dev@partner.dk', '--password', 'in ps and history'], b.io)).toBe(2);
    expect(a.requests).toEqual([]);
    expect(b.requests).toEqual([]);
  });
});
