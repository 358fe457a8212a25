import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { OrganizationService } from './modules/organizations';
import { SandboxService } from './modules/sandbox';
import type { AppConfig } from './shared/config/app-config';

/**
 * CONTRACT §10: on first start with the embedded store and no data, provision one sandbox project and
 * print what a first `curl` needs. Returns the lines to print: with `showSecrets` (stdout is a
 * terminal) the token is shown this once; otherwise (stdout is a log stream) only the path of the
 * 0600 file that holds it.
 */
export async function firstStartSandbox(config: AppConfig, app: INestApplication, showSecrets: boolean): Promise<string[]> {
  if (config.database.kind !== 'pglite') return [];
  const count = await app.get(OrganizationService).count();
  if (count > 0) {
    const projectId = await app.get(SandboxService).firstProjectId();
    return projectId
      ? [
          `Sandbox project ${projectId} exists; its token was shown at first start.`,
          `  A new sandbox token (supersedes the old one): npm run console -- sandbox generation ${projectId}`,
        ]
      : [];
  }
  const p = await app.get(SandboxService).provisionProject('First sandbox project');
  const [debit, credit] = p.accounts;
  const envFile = writeSandboxEnv(config.dataDir, { BASE: p.base_url, TOKEN: p.token, A1: debit.id, A2: credit.id, APP_ID: p.app_id });
  const today = new Date().toISOString().slice(0, 10);
  const body = JSON.stringify({
    posting_date: today,
    lines: [
      { account_id: debit.id, debit_minor: 12500 },
      { account_id: credit.id, credit_minor: 12500 },
    ],
  });
  if (!showSecrets) {
    return [
      `Provisioned a sandbox project ${p.project_id}: its base URL, token, account ids and app id are in ${envFile} (mode 0600; stdout is not a terminal, so the token is not printed)`,
      `  try: source ${envFile} && curl -s -X POST "$BASE/journal/prepare" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d "{\"posting_date\":\"${today}\",\"lines\":[{\"account_id\":\"$A1\",\"debit_minor\":12500},{\"account_id\":\"$A2\",\"credit_minor\":12500}]}"`,
    ];
  }
  return [
    'Provisioned a sandbox project (shown once):',
    `  base URL:   ${p.base_url}`,
    `  token:      ${p.token}`,
    `  accounts:   ${debit.number} ${debit.name} = ${debit.id}`,
    `              ${credit.number} ${credit.name} = ${credit.id}`,
    `  app id:     ${p.app_id} (register webhook endpoints for it: POST /console/v1/apps/${p.app_id}/webhook-endpoints)`,
    `  the same as shell variables: source ${envFile}   (BASE, TOKEN, A1, A2, APP_ID)`,
    '  try:',
    `  curl -s -X POST ${p.base_url}/journal/prepare -H 'Authorization: Bearer ${p.token}' -H 'Content-Type: application/json' -d '${body}'`,
  ];
}

/**
 * `DATA_DIR/sandbox.env`: the first sandbox project as shell variables, for `source .data/sandbox.env`
 * (README). It holds the token, so it is the owner's alone (0600), like the console key beside it.
 */
export function writeSandboxEnv(dataDir: string, values: Record<string, string>): string {
  const file = join(dataDir, 'sandbox.env');
  mkdirSync(dataDir, { recursive: true });
  const quoted = Object.entries(values).map(([k, v]) => `${k}='${v.replace(/'/g, `'\\''`)}'`);
  writeFileSync(file, `# written by the first start of the service: the first sandbox project (its token is shown once)\nexport ${quoted.join(' ')}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}
