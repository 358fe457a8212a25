/* The operator CLI: `npm run console -- <command>`. A thin HTTP client of the console API (CONTRACT §10)
 * that prints the JSON answer; it writes to stdout/stderr directly (it is not the service). */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import { totpCodeAt } from '../../auth/organizations';

export interface ParsedArgs {
  words: string[];
  options: Record<string, string>;
}

export class UsageError extends Error {}

/** An option no command takes; plan() adds the command's usage when the command is known. */
class UnknownOptionError extends UsageError {}

/** Options that take no value (`--next`, `--help`, `--password-stdin`); they read as "true". */
const FLAGS = new Set(['next', 'help', 'password-stdin']);

/** Options that would put a secret in ps and shell history: refused with the way to pass it instead. */
const SECRET_OPTIONS: Readonly<Record<string, string>> = {
  secret: '--secret is not taken: a secret on the command line shows in ps and shell history; pass it in TOTP_SECRET or on stdin',
  password:
    '--password is not taken: a password on the command line shows in ps and shell history; pass it in OWNER_PASSWORD, or on stdin with --password-stdin',
};

/**
 * `words… --name value --name=value`, parsed by commander; every option of any command is known to it
 * and every option but a flag takes a value. Which options a command accepts is plan()'s business.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const program = new Command()
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined })
    .helpOption(false)
    .allowExcessArguments()
    .argument('[words...]');
  for (const name of OPTION_NAMES) {
    if (FLAGS.has(name)) program.option(`--${name}`);
    else {
      program.option(`--${name} <value>`, '', (value: string) => {
        if (value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
        return value;
      });
    }
  }
  try {
    program.parse(argv, { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    const option = /'(--[^' ]+)/.exec(err.message)?.[1] ?? '';
    if (err.code === 'commander.optionMissingArgument') throw new UsageError(`${option} needs a value`);
    if (err.code === 'commander.unknownOption') throw new UnknownOptionError(`unknown option ${option}`);
    throw new UsageError(err.message.replace(/^error: /, ''));
  }
  const parsed = program.opts<Record<string, string | true | undefined>>();
  const options: Record<string, string> = {};
  for (const option of program.options) {
    const value = parsed[option.attributeName()];
    if (value !== undefined) options[option.long!.slice(2)] = value === true ? 'true' : value;
  }
  return { words: program.args, options };
}

const list = (v: string): string[] =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
/** A whole number is sent as a JSON number; anything else as typed, for the server to judge. */
const integer = (v: string): number | string => (/^[0-9]+$/.test(v) ? Number(v) : v);
const seg = encodeURIComponent;

export interface ConsoleCall {
  /** a read; absent: POST with `body` (a GET sends no body) */
  method?: 'GET';
  path: string;
  body: Record<string, unknown>;
}

const read = (path: string): ConsoleCall => ({ method: 'GET', path, body: {} });

interface CommandSpec {
  usage: string;
  /** options that must be given (the first may come as a bare word instead) */
  required: string[];
  optional?: string[];
  /** which required option a bare word after the command fills */
  positional?: string;
  call?: (o: Record<string, string>, input: LocalInput) => ConsoleCall;
  /** a local command: what to print, and when (`at`, epoch ms; now when absent) */
  local?: (o: Record<string, string>, nowMs: number, input: LocalInput) => string | { output: string; at: number };
  /** a command that needs no server; prints its result as a bare line (handy in `$(…)`) */
}

const COMMANDS: Record<string, CommandSpec> = {
  'sandbox provision': {
    usage: 'sandbox provision [--name NAME]',
    required: [],
    optional: ['name'],
    call: (o) => ({ path: '/sandbox/projects', body: o.name !== undefined ? { name: o.name } : {} }),
  },
  'sandbox generation': {
    usage: 'sandbox generation <project-id>',
    required: ['project'],
    positional: 'project',
    call: (o) => ({ path: `/sandbox/projects/${seg(o.project)}/generations`, body: {} }),
  },
  'org create': {
    usage: 'org create --name NAME',
    required: ['name'],
    call: (o) => ({ path: '/organizations', body: { name: o.name } }),
  },
  'account create': {
    usage: 'account create --org ORG --number NUMBER --name NAME',
    required: ['org', 'number', 'name'],
    call: (o) => ({ path: `/organizations/${seg(o.org)}/accounts`, body: { number: o.number, name: o.name } }),
  },
  'account deactivate': {
    usage: 'account deactivate <account-id>',
    required: ['account'],
    positional: 'account',
    call: (o) => ({ path: `/accounts/${seg(o.account)}/deactivate`, body: {} }),
  },
  'tax-code create': {
    usage: 'tax-code create --org ORG --code CODE --rate-basis-points 2500',
    required: ['org', 'code', 'rate-basis-points'],
    call: (o) => ({
      path: `/organizations/${seg(o.org)}/tax-codes`,
      body: { code: o.code, rate_basis_points: integer(o['rate-basis-points']) },
    }),
  },
  'org show': {
    usage: 'org show <org-id>   (accounts, tax codes, owners)',
    required: ['org'],
    positional: 'org',
    call: (o) => read(`/organizations/${seg(o.org)}`),
  },
  'owner enrol': {
    usage:
      'owner enrol --org ORG --email EMAIL [--password-stdin]   (prints the TOTP secret once; a password, 12–128 characters, for the consent pages comes from OWNER_PASSWORD or, with --password-stdin, stdin — never an argument)',
    required: ['org', 'email'],
    optional: ['password-stdin'],
    call: (o, input) => ({
      path: `/organizations/${seg(o.org)}/owners`,
      body: { email: o.email, ...(input.password !== undefined ? { password: input.password } : {}) },
    }),
  },
  'owner password': {
    usage:
      "owner password <user-id> [--password-stdin]   (sets or replaces an owner's password, read from OWNER_PASSWORD or, with --password-stdin, stdin; ends the owner's consent sessions)",
    required: ['user'],
    optional: ['password-stdin'],
    positional: 'user',
    call: (o, input) => {
      if (input.password === undefined)
        throw new UsageError('owner password reads the password from OWNER_PASSWORD or, with --password-stdin, from stdin; neither gave one');
      return { path: `/users/${seg(o.user)}/password`, body: { password: input.password } };
    },
  },
  'developer create': {
    usage:
      'developer create --email EMAIL   (a developer account, also while DEVELOPER_SIGNUP=closed; the password, 12–128 characters, from DEVELOPER_PASSWORD or stdin — never an argument; prints the TOTP secret once)',
    required: ['email'],
    call: (o, input) => {
      if (!input.password) throw new UsageError('developer create reads the password from DEVELOPER_PASSWORD or stdin; both are empty');
      return { path: '/developers', body: { email: o.email, password: input.password } };
    },
  },
  'app create': {
    usage: 'app create --name NAME',
    required: ['name'],
    call: (o) => ({ path: '/apps', body: { name: o.name } }),
  },
  'app show': {
    usage: 'app show <app-id>   (revisions, redirect URIs, webhook endpoints)',
    required: ['app'],
    positional: 'app',
    call: (o) => read(`/apps/${seg(o.app)}`),
  },
  'oauth register': {
    usage: 'oauth register --app APP --redirect-uris URI,URI…   (prints the hcs_ client secret once; replaces the previous one)',
    required: ['app', 'redirect-uris'],
    call: (o) => ({ path: `/apps/${seg(o.app)}/oauth`, body: { redirect_uris: list(o['redirect-uris']) } }),
  },
  'revision create': {
    usage: 'revision create --app APP',
    required: ['app'],
    positional: 'app',
    call: (o) => ({ path: `/apps/${seg(o.app)}/revisions`, body: {} }),
  },
  'revision approve': {
    usage: 'revision approve --app APP --revision REVISION',
    required: ['app', 'revision'],
    call: (o) => ({ path: `/apps/${seg(o.app)}/revisions/${seg(o.revision)}/approve`, body: {} }),
  },
  'publisher verify': {
    usage: 'publisher verify --app APP [--cvr CVR]   (the approved revision\'s publisher: owners no longer read "Not verified")',
    required: ['app'],
    optional: ['cvr'],
    positional: 'app',
    call: (o) => ({ path: `/apps/${seg(o.app)}/publisher-verification`, body: o.cvr !== undefined ? { cvr: o.cvr } : {} }),
  },
  'revision pending': {
    usage: 'revision pending   (revisions submitted for review and not yet approved, oldest first)',
    required: [],
    call: () => ({ path: '/revisions?pending=true', body: {}, method: 'GET' }),
  },
  'grant create': {
    usage: 'grant create --org ORG --app APP --owner USER --totp CODE --accounts ID,ID… --scopes journal:prepare,… [--duration SECONDS]',
    required: ['org', 'app', 'owner', 'accounts', 'scopes'],
    optional: ['totp', 'duration'],
    call: (o) => ({
      path: `/organizations/${seg(o.org)}/grants`,
      body: {
        app_id: o.app,
        owner_user_id: o.owner,
        ...(o.totp !== undefined ? { totp_code: o.totp } : {}),
        account_ids: list(o.accounts),
        scopes: list(o.scopes),
        ...(o.duration !== undefined ? { duration_seconds: integer(o.duration) } : {}),
      },
    }),
  },
  'grant list': {
    usage: "grant list <org-id>   (the organization's grants)",
    required: ['org'],
    positional: 'org',
    call: (o) => read(`/organizations/${seg(o.org)}/grants`),
  },
  'grant revoke': {
    usage: 'grant revoke <grant-id>',
    required: ['grant'],
    positional: 'grant',
    call: (o) => ({ path: `/grants/${seg(o.grant)}/revoke`, body: {} }),
  },
  'token issue': {
    usage: 'token issue <grant-id>   (prints the hat_ token once)',
    required: ['grant'],
    positional: 'grant',
    call: (o) => ({ path: `/grants/${seg(o.grant)}/tokens`, body: {} }),
  },
  'mandate create': {
    usage: 'mandate create --org ORG --app APP --owner USER --totp CODE',
    required: ['org', 'app', 'owner'],
    optional: ['totp'],
    call: (o) => ({
      path: `/organizations/${seg(o.org)}/mandates`,
      body: { app_id: o.app, owner_user_id: o.owner, ...(o.totp !== undefined ? { totp_code: o.totp } : {}) },
    }),
  },
  'mandate revoke': {
    usage: 'mandate revoke <mandate-id>',
    required: ['mandate'],
    positional: 'mandate',
    call: (o) => ({ path: `/mandates/${seg(o.mandate)}/revoke`, body: {} }),
  },
  'period close': {
    usage: 'period close --org ORG --period YYYY-MM   (postings dated in it are then 422 period_locked)',
    required: ['org', 'period'],
    call: (o) => ({ path: `/organizations/${seg(o.org)}/periods/${seg(o.period)}/close`, body: {} }),
  },
  'webhook create': {
    usage: 'webhook create --app APP --url URL --environment sandbox|production   (prints the whsec_ secret once)',
    required: ['app', 'url', 'environment'],
    call: (o) => ({ path: `/apps/${seg(o.app)}/webhook-endpoints`, body: { url: o.url, environment: o.environment } }),
  },
  'webhook enable': {
    usage: 'webhook enable <endpoint-id>   (a disabled endpoint; its pending deliveries become due at once)',
    required: ['endpoint'],
    positional: 'endpoint',
    call: (o) => ({ path: `/webhook-endpoints/${seg(o.endpoint)}/enable`, body: {} }),
  },
  'webhook rotate-secret': {
    usage: 'webhook rotate-secret <endpoint-id>   (prints the new whsec_ secret once; the previous one also signs for 24 h)',
    required: ['endpoint'],
    positional: 'endpoint',
    call: (o) => ({ path: `/webhook-endpoints/${seg(o.endpoint)}/rotate-secret`, body: {} }),
  },
  'webhook recover': {
    usage: "webhook recover <endpoint-id> --since ISO-8601   (delivers again every event of the endpoint's app and environment since then)",
    required: ['endpoint', 'since'],
    positional: 'endpoint',
    call: (o) => ({ path: `/webhook-endpoints/${seg(o.endpoint)}/recover`, body: { since: o.since } }),
  },
  'webhook test': {
    usage: 'webhook test <endpoint-id>   (sends one webhook.test event to this endpoint only)',
    required: ['endpoint'],
    positional: 'endpoint',
    call: (o) => ({ path: `/webhook-endpoints/${seg(o.endpoint)}/test`, body: {} }),
  },
  'webhook deliveries': {
    usage: "webhook deliveries <app-id> [--limit N]   (the app's latest deliveries, newest first)",
    required: ['app'],
    optional: ['limit'],
    positional: 'app',
    call: (o) => read(`/apps/${seg(o.app)}/webhook-deliveries${o.limit !== undefined ? `?limit=${seg(o.limit)}` : ''}`),
  },
  'webhook resend': {
    usage: 'webhook resend --event EVENT_ID --endpoint ENDPOINT_ID   (one more attempt at once, same webhook-id and body)',
    required: ['event', 'endpoint'],
    call: (o) => ({ path: `/webhook-deliveries/${seg(o.event)}/${seg(o.endpoint)}/resend`, body: {} }),
  },
  'totp code': {
    usage:
      "totp code [--next] < secret-file   (the owner's current one-time code, computed locally from the base32 TOTP secret read from TOTP_SECRET or stdin — never an argument, which ps and shell history show; --next waits for the next 30 s step and prints its code)",
    required: [],
    optional: ['next'],
    local: (o, nowMs, input) => {
      if (!input.totpSecret) throw new UsageError('totp code reads the base32 TOTP secret from TOTP_SECRET or stdin; both are empty');
      const secret = input.totpSecret.replace(/\s+/g, '').toUpperCase();
      const at = o.next !== undefined ? (Math.floor(nowMs / TOTP_STEP_MS) + 1) * TOTP_STEP_MS : nowMs;
      try {
        const output = totpCodeAt(secret, at);
        return o.next !== undefined ? { output, at } : output;
      } catch {
        throw new UsageError('the TOTP secret (TOTP_SECRET or stdin) must be the base32 secret that owner enrol printed');
      }
    },
  },
};

/** Every option any command takes, for the parser. */
const OPTION_NAMES = [
  ...new Set(
    Object.values(COMMANDS)
      .flatMap((c) => [...c.required, ...(c.optional ?? [])])
      .concat([...FLAGS, ...Object.keys(SECRET_OPTIONS)]),
  ),
];

export function usage(): string {
  return [
    'usage: npm run console -- <command> [options]',
    '',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
    '',
    'Connects to http://CONSOLE_HOST:CONSOLE_PORT/console/v1 (127.0.0.1:3001) with CONSOLE_API_KEY',
    'or the key kept in DATA_DIR/console-api-key (./.data): the service must be running (`npm start`).',
    'Prints the JSON answer; exits 1 on an error answer or when the service cannot be reached, 2 on a bad command line.',
  ].join('\n');
}

/** RFC 6238 time step of the owners' codes. */
const TOTP_STEP_MS = 30_000;

/** `at`: print no earlier than this (epoch ms), e.g. when the next TOTP step begins. */
export type Plan = { kind: 'call'; call: ConsoleCall } | { kind: 'local'; output: string; at?: number } | { kind: 'help' };

/** What a command reads besides its arguments (a secret is never an argument). */
export interface LocalInput {
  /** `totp code`: TOTP_SECRET, else stdin */
  totpSecret?: string;
  /** `owner enrol`, `owner password`: OWNER_PASSWORD, else stdin with --password-stdin; `developer create`: DEVELOPER_PASSWORD, else stdin */
  password?: string;
}

/** What a command line asks for, without doing it. Throws UsageError on a bad command line. */
export function plan(argv: readonly string[], nowMs: number = Date.now(), input: LocalInput = {}): Plan {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs(argv);
  } catch (err) {
    const spec =
      err instanceof UnknownOptionError
        ? COMMANDS[
            argv
              .filter((a) => !a.startsWith('-'))
              .slice(0, 2)
              .join(' ')
          ]
        : undefined;
    throw spec ? new UsageError(`${(err as Error).message}\n  ${spec.usage}`) : err;
  }
  const { words, options } = parsed;
  if (words.length === 0 || words[0] === 'help' || options.help !== undefined) return { kind: 'help' };
  const name = words.slice(0, 2).join(' ');
  const spec = COMMANDS[name];
  if (!spec) throw new UsageError(`unknown command "${name}"`);
  const rest = words.slice(2);
  const values = { ...options };
  if (rest.length > 0) {
    if (!spec.positional || rest.length > 1 || values[spec.positional] !== undefined) {
      throw new UsageError(`unexpected argument "${rest[0]}"\n  ${spec.usage}`);
    }
    values[spec.positional] = rest[0];
  }
  const known = new Set([...spec.required, ...(spec.optional ?? [])]);
  for (const option of Object.keys(values)) {
    if (SECRET_OPTIONS[option] !== undefined) throw new UsageError(SECRET_OPTIONS[option]);
    if (!known.has(option)) throw new UsageError(`unknown option --${option}\n  ${spec.usage}`);
  }
  for (const option of spec.required) {
    if (values[option] === undefined) throw new UsageError(`missing --${option}\n  ${spec.usage}`);
  }
  if (spec.local) {
    const local = spec.local(values, nowMs, input);
    return typeof local === 'string' ? { kind: 'local', output: local } : { kind: 'local', ...local };
  }
  return { kind: 'call', call: spec.call!(values, input) };
}

export interface Connection {
  baseUrl: string;
  apiKey: string;
}

/** CONTRACT §2: CONSOLE_HOST, CONSOLE_PORT, CONSOLE_API_KEY or DATA_DIR/console-api-key. */
export function connection(env: NodeJS.ProcessEnv): Connection {
  let host = env.CONSOLE_HOST && env.CONSOLE_HOST !== '' ? env.CONSOLE_HOST : '127.0.0.1';
  if (host === '0.0.0.0') host = '127.0.0.1';
  if (host === '::') host = '::1';
  const port = env.CONSOLE_PORT && env.CONSOLE_PORT !== '' ? env.CONSOLE_PORT : '3001';
  if (port === '0') throw new UsageError('CONSOLE_PORT=0: the console listener is disabled');
  let apiKey = env.CONSOLE_API_KEY && env.CONSOLE_API_KEY !== '' ? env.CONSOLE_API_KEY : null;
  if (apiKey === null) {
    const file = join(resolve(env.DATA_DIR && env.DATA_DIR !== '' ? env.DATA_DIR : './.data'), 'console-api-key');
    if (!existsSync(file)) throw new UsageError(`no CONSOLE_API_KEY and no ${file}: start the service once, or set CONSOLE_API_KEY`);
    apiKey = readFileSync(file, 'utf8').trim();
  }
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return { baseUrl: `http://${hostPart}:${port}/console/v1`, apiKey };
}

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  fetch: typeof fetch;
  env: NodeJS.ProcessEnv;
  nowMs?: () => number;
  /** waits `ms` (tests pass a fake) */
  sleep?: (ms: number) => Promise<void>;
  /** all of stdin (`totp code` reads the secret there when TOTP_SECRET is unset; `owner …` the password with --password-stdin) */
  stdin?: () => Promise<string>;
}

/** The TOTP secret of `totp code`: TOTP_SECRET, else stdin (not read when stdin is a terminal with nothing typed: EOF ends it). */
async function totpSecretOf(argv: readonly string[], io: Io): Promise<string | undefined> {
  if (argv[0] !== 'totp' || argv[1] !== 'code') return undefined;
  const fromEnv = io.env.TOTP_SECRET;
  if (fromEnv && fromEnv !== '') return fromEnv;
  return io.stdin ? (await io.stdin()).trim() : undefined;
}

/**
 * The password of `owner enrol` and `owner password` (OWNER_PASSWORD, else all of stdin when
 * --password-stdin is given) and of `developer create` (DEVELOPER_PASSWORD, else stdin); one trailing
 * line break dropped, so `echo`/`read` work. Never an argument: ps and shell history never see it.
 */
async function passwordOf(argv: readonly string[], io: Io): Promise<string | undefined> {
  if (argv[0] === 'developer' && argv[1] === 'create') {
    const fromEnv = io.env.DEVELOPER_PASSWORD;
    if (fromEnv && fromEnv !== '') return fromEnv;
    return io.stdin ? (await io.stdin()).replace(/\r?\n$/, '') : undefined;
  }
  if (argv[0] !== 'owner' || (argv[1] !== 'enrol' && argv[1] !== 'password')) return undefined;
  const fromEnv = io.env.OWNER_PASSWORD;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (!argv.includes('--password-stdin') || !io.stdin) return undefined;
  const text = (await io.stdin()).replace(/\r?\n$/, '');
  return text === '' ? undefined : text;
}

/** Runs one command line; resolves to the exit code (0 ok, 1 error answer or unreachable, 2 usage). */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  let p: Plan;
  try {
    p = plan(argv, io.nowMs ? io.nowMs() : Date.now(), { totpSecret: await totpSecretOf(argv, io), password: await passwordOf(argv, io) });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`${err.message}\n`);
    return 2;
  }
  if (p.kind === 'help') {
    io.out(`${usage()}\n`);
    return 0;
  }
  if (p.kind === 'local') {
    const wait = p.at === undefined ? 0 : p.at - (io.nowMs ? io.nowMs() : Date.now());
    if (wait > 0) {
      io.err(`waiting ${Math.ceil(wait / 1000)} s for the next code…\n`);
      await (io.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms))))(wait);
    }
    io.out(`${p.output}\n`);
    return 0;
  }
  let conn: Connection;
  try {
    conn = connection(io.env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`${err.message}\n`);
    return 2;
  }
  let res: Response;
  try {
    res = await io.fetch(
      `${conn.baseUrl}${p.call.path}`,
      p.call.method === 'GET'
        ? { method: 'GET', headers: { Authorization: `Bearer ${conn.apiKey}` } }
        : {
            method: 'POST',
            headers: { Authorization: `Bearer ${conn.apiKey}`, 'Content-Type': 'application/json' },
            body: JSON.stringify(p.call.body),
          },
    );
  } catch (err) {
    io.err(
      `cannot reach the console API at ${conn.baseUrl} (${(err as Error).message}).\n` +
        'Is the service running? Start it in the project folder with `npm start` (in another terminal, or `npm start &`);\n' +
        'if it runs elsewhere, set CONSOLE_HOST and CONSOLE_PORT (and CONSOLE_API_KEY) to its console listener.\n',
    );
    return 1;
  }
  const text = await res.text();
  let printed = text;
  try {
    printed = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: print it as it came
  }
  if (res.ok) {
    io.out(`${printed}\n`);
    return 0;
  }
  io.err(`${printed}\n`);
  return 1;
}

if (require.main === module) {
  run(process.argv.slice(2), {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    fetch,
    env: process.env,
    stdin: async () => {
      if (process.stdin.isTTY)
        process.stderr.write(
          process.argv[2] === 'owner' ? 'type the password, then Enter and Ctrl-D\n' : 'paste the base32 TOTP secret, then Enter and Ctrl-D\n',
        );
      let text = '';
      for await (const chunk of process.stdin) text += String(chunk);
      return text;
    },
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (err: Error) => {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 1;
    },
  );
}
