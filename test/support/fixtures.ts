import type { TestApp } from './test-app';
import { TEST_CONSOLE_KEY } from './test-app';

export interface SandboxProject {
  project_id: string;
  organization_id: string;
  app_id: string;
  generation_id: string;
  token: string;
  base_url: string;
  accounts: Array<{ id: string; number: string; name: string }>;
  tax_codes: Array<{ id: string; code: string }>;
}

export const SANDBOX = '/api/partner/sandbox/v1';
export const PRODUCTION = '/api/partner/v1';

/** A fresh sandbox project through the console API. */
export async function aSandboxProject(app: TestApp, name = 'Test project'): Promise<SandboxProject> {
  const res = await app.console().post('/console/v1/sandbox/projects').set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`).send({ name });
  if (res.status !== 201) throw new Error(`sandbox provisioning failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as SandboxProject;
}

export interface JournalLineFixture {
  account_id: string;
  debit_minor?: number;
  credit_minor?: number;
  [key: string]: unknown;
}

/** A balanced journal over the given accounts: `lines` lines alternating debit/credit of `amount`. */
export function aJournal(
  accounts: string[],
  options: { lines?: number; amount?: number; posting_date?: string } = {},
): { posting_date: string; lines: JournalLineFixture[]; [key: string]: unknown } {
  const n = options.lines ?? 2;
  if (n % 2 !== 0) throw new Error('aJournal builds balanced pairs: use an even number of lines');
  const amount = options.amount ?? 10000;
  const lines: JournalLineFixture[] = [];
  for (let i = 0; i < n; i++) {
    const account_id = accounts[i % accounts.length];
    lines.push(i % 2 === 0 ? { account_id, debit_minor: amount } : { account_id, credit_minor: amount });
  }
  return { posting_date: options.posting_date ?? '2026-11-20', lines };
}
