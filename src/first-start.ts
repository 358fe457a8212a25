import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { OrganizationService, SandboxService } from './modules/auth';
import type { AppConfig } from './shared/config/app-config';

/**
 * CONTRACT §10: on first start with the embedded store and no data, provision one sandbox project and
 * print what a first `curl` needs. Returns the lines to print: with `showSecrets` (stdout is a
 * terminal) the token is shown this once; otherwise (stdout is a log stream) only the path of the
 * 0600 file that holds it.
 */
export async function firstStartSandbox(config: AppConfig, app: INestApplication, showSecrets: boolean): Promise<string[]> {
  const store = storeOf(config);
  // a sandbox.env of another store (PGlite's, then DATABASE_URL set) holds a token this one does not know
  const stale = readSandboxEnvStore(config.dataDir);
  const lines: string[] = [];
  if (stale !== null && stale !== store) {
    rmSync(join(config.dataDir, 'sandbox.env'), { force: true });
    lines.push(`Removed ${join(config.dataDir, 'sandbox.env')}: it was written for another store (${stale}).`);
  }
  const count = await app.get(OrganizationService).count();
  if (config.database.kind !== 'pglite' || count > 0) {
    const projectId = await app.get(SandboxService).firstProjectId();
    if (projectId) {
      lines.push(
        `Sandbox project ${projectId} exists; its token was shown when it was made.`,
        `  A new sandbox token (supersedes the old one): npm run console -- sandbox generation ${projectId}`,
      );
    } else {
      // CONTRACT §10 provisions one only on the embedded store; on a server, say how
      lines.push(
        'No sandbox project on this database yet. Provision one (prints its token once):',
        `  npm run -s console -- sandbox provision --name 'My integration'`,
      );
    }
    return lines;
  }
  const p = await app.get(SandboxService).provisionProject('First sandbox project');
  const byNumber = (number: string) => p.accounts.find((a) => a.number === number);
  // the sample chart's accounts by meaning (SANDBOX_ACCOUNTS), so an example journal reads as bookkeeping
  const meanings: Array<[string, string]> = [
    ['SALES_ACCOUNT', '1000'],
    ['SERVICES_ACCOUNT', '1100'],
    ['PURCHASES_ACCOUNT', '5000'],
    ['RENT_ACCOUNT', '7000'],
    ['OFFICE_ACCOUNT', '7500'],
    ['BANK_ACCOUNT', '12000'],
    ['RECEIVABLES_ACCOUNT', '13000'],
    ['PAYABLES_ACCOUNT', '15000'],
  ];
  const accounts: Record<string, string> = {};
  for (const [name, number] of meanings) {
    const account = byNumber(number);
    if (account) accounts[name] = account.id;
  }
  const salesTax = p.tax_codes.find((t) => t.code === 'U25') ?? p.tax_codes[0];
  const envFile = writeSandboxEnv(config.dataDir, store, {
    BASE: p.base_url,
    TOKEN: p.token,
    APP_ID: p.app_id,
    PROJECT_ID: p.project_id,
    ORG_ID: p.organization_id,
    ...accounts,
    ...(salesTax ? { SALES_TAX_CODE: salesTax.id } : {}),
    // issue 34: the origin and the console's address, so that no shell block of the docs names a port; the
    // console CLI (`npm run console`) reads CONSOLE_HOST and CONSOLE_PORT
    ORIGIN: config.publicOrigin,
    ...(config.consolePort > 0 ? consoleVariables(config.consoleHost, config.consolePort) : {}),
  });
  const rent = byNumber('7000') ?? p.accounts[0];
  const bank = byNumber('12000') ?? p.accounts[1];
  if (!showSecrets) {
    return [
      ...lines,
      `Provisioned a sandbox project ${p.project_id}: its base URL, token, account ids and app id are in ${envFile} (mode 0600; stdout is not a terminal, so the token is not printed)`,
      `  try (rent paid from the bank): ${tryFromEnvFile(envFile)}`,
    ];
  }
  return [
    ...lines,
    'Provisioned a sandbox project (shown once):',
    `  base URL:   ${p.base_url}`,
    `  token:      ${p.token}`,
    ...p.accounts.map((a, i) => `  ${i === 0 ? 'accounts:  ' : '           '} ${a.number.padStart(5)} ${a.name} = ${a.id}`),
    `  app id:     ${p.app_id} (register webhook endpoints for it: POST /console/v1/apps/${p.app_id}/webhook-endpoints)`,
    `  the same as shell variables: source ${envFile}   (BASE, TOKEN, APP_ID, RENT_ACCOUNT, BANK_ACCOUNT, SALES_ACCOUNT, …, SALES_TAX_CODE)`,
    '  try (rent paid from the bank):',
    `  ${tryWithValues(p.base_url, p.token, rent.id, bank.id, new Date().toISOString().slice(0, 10))}`,
  ];
}

/** A value for bash, in single quotes. */
const singleQuoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A word for bash: as it is when it holds nothing the shell would read otherwise, else single-quoted. */
const shellWord = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : singleQuoted(s));

/**
 * Issue 34: the banner's "try" line when stdout is not a terminal: sources sandbox.env and pastes into bash as
 * printed (its JSON's inner quotes escaped; they were not, and the paste answered 400 "The body is not valid JSON").
 */
export function tryFromEnvFile(envFile: string): string {
  return `source ${shellWord(envFile)} && curl -s -X POST "$BASE/journal/prepare" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d "{\\"posting_date\\":\\"$(date +%F)\\",\\"lines\\":[{\\"account_id\\":\\"$RENT_ACCOUNT\\",\\"debit_minor\\":700000},{\\"account_id\\":\\"$BANK_ACCOUNT\\",\\"credit_minor\\":700000}]}"`;
}

/** The banner's "try" line on a terminal, with the token and account ids written out; pastes into bash as printed. */
export function tryWithValues(baseUrl: string, token: string, rentId: string, bankId: string, date: string): string {
  const body = JSON.stringify({
    posting_date: date,
    description: 'Husleje',
    lines: [
      { account_id: rentId, debit_minor: 700000 },
      { account_id: bankId, credit_minor: 700000 },
    ],
  });
  return `curl -s -X POST ${shellWord(`${baseUrl}/journal/prepare`)} -H ${shellWord(`Authorization: Bearer ${token}`)} -H 'Content-Type: application/json' -d ${shellWord(body)}`;
}

/** The console listener's address for a client on this machine (a wildcard bind is reached on loopback). */
function consoleVariables(host: string, port: number): Record<string, string> {
  const reach = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const hostInUrl = reach.includes(':') ? `[${reach}]` : reach;
  return { CONSOLE_HOST: reach, CONSOLE_PORT: String(port), CONSOLE_URL: `http://${hostInUrl}:${port}/console/v1` };
}

/** Which store the service runs on, as sandbox.env records it: `pglite:<DATA_DIR>` or the server URL without its password. */
function storeOf(config: AppConfig): string {
  const db = config.database;
  if (db.kind === 'pglite') return db.dataDir === null ? 'pglite:memory' : `pglite:${db.dataDir}`;
  return db.url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1@');
}

function readSandboxEnvStore(dataDir: string): string | null {
  try {
    return /^# store: (.*)$/m.exec(readFileSync(join(dataDir, 'sandbox.env'), 'utf8'))?.[1] ?? 'unknown';
  } catch {
    return null;
  }
}

/**
 * `DATA_DIR/sandbox.env`: the first sandbox project as shell variables, for `source .data/sandbox.env`
 * (README). It holds the token, so it is the owner's alone (0600), like the console key beside it.
 */
export function writeSandboxEnv(dataDir: string, store: string, values: Record<string, string>): string {
  const file = join(dataDir, 'sandbox.env');
  mkdirSync(dataDir, { recursive: true });
  const quoted = Object.entries(values).map(([k, v]) => `${k}=${singleQuoted(v)}`);
  writeFileSync(
    file,
    `# written by the first start of the service: the first sandbox project (its token is shown once)\n# store: ${store}\nexport ${quoted.join(' ')}\n`,
    { mode: 0o600 },
  );
  chmodSync(file, 0o600);
  return file;
}

/**
 * Issue 35: what is off without SMTP_URL, and where the developer sign-up links go instead (a fresh
 * machine still works: the operator, or the developer on their own machine, reads the link there).
 */
export function emailLines(config: AppConfig): string[] {
  if (config.developerSignup !== 'open') return [];
  if (config.smtpUrl !== null) return ['Developer sign-up (/developers/signup) sends its confirmation links by email through SMTP_URL.'];
  return [
    'SMTP_URL is not set: developer sign-up sends no email. Each confirmation link is written to the log',
    `  instead, at warn ("developer sign-up link for …"); open it to finish the sign-up. Set SMTP_URL (smtp://user:password@host:587) to send them.`,
  ];
}
