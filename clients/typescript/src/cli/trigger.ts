import { randomUUID } from 'node:crypto';
import { createPartnerClient, type Schemas } from '../index.ts';
import { CliError, describeAnswer, describeFailure, isSandboxBase, type PartnerEnvironment } from './common.ts';
import type { Output } from './listen.js';

const AMOUNT_MINOR = 10_000; // 100.00 DKK

/**
 * `partner-api trigger`: posts a balanced sample journal entry in the sandbox (debit the first account the
 * token may post to, credit the second) and prints its receipt; the entry's `operation.completed` event
 * then reaches a running `partner-api listen`. Never on a production base.
 */
export async function trigger(env: PartnerEnvironment, io: Output): Promise<void> {
  if (!isSandboxBase(env.base)) {
    throw new CliError(
      `partner-api trigger: sandbox only, and PARTNER_API_BASE (${env.base}) is not a sandbox base (…/api/partner/sandbox/v1); nothing was posted`,
    );
  }
  const client = createPartnerClient(env.base, env.token);
  const fail = (call: string, status: number, body: unknown): never => {
    const hint = status === 401 ? ': the token in PARTNER_API_TOKEN was refused (is it a current sandbox token?)' : '';
    throw new CliError(`partner-api trigger: ${call} answered ${describeAnswer(status, body)}${hint}`);
  };
  const reach = async <T>(call: string, request: () => Promise<T>): Promise<T> => {
    try {
      return await request();
    } catch (err) {
      throw new CliError(`partner-api trigger: ${call} failed: ${describeFailure(err)}`);
    }
  };

  const accountsCall = `GET ${env.base}/accounts`;
  const accounts = await reach(accountsCall, () => client.GET('/accounts'));
  if (!accounts.data) return fail(accountsCall, accounts.response.status, accounts.error);
  const [debit, credit] = accounts.data.data;
  if (!debit || !credit) throw new CliError('partner-api trigger: the sandbox lists fewer than two accounts to post to');

  const journal: Schemas['JournalRequestDto'] = {
    posting_date: new Date().toISOString().slice(0, 10),
    description: 'Sample entry from partner-api trigger',
    lines: [
      { account_id: debit.id, debit_minor: AMOUNT_MINOR, line_text: 'partner-api trigger' },
      { account_id: credit.id, credit_minor: AMOUNT_MINOR, line_text: 'partner-api trigger' },
    ],
  };
  const postCall = `POST ${env.base}/journal`;
  const posted = await reach(postCall, () => client.POST('/journal', { body: journal, params: { header: { 'Idempotency-Key': randomUUID() } } }));
  if (!posted.data) return fail(postCall, posted.response.status, posted.error);

  const receiptCall = `GET ${env.base}/operations/${posted.data.operation_id}`;
  const receipt = await reach(receiptCall, () => client.GET('/operations/{operation_id}', { params: { path: { operation_id: posted.data.operation_id } } }));
  if (!receipt.data) return fail(receiptCall, receipt.response.status, receipt.error);
  io.out(
    `Posted a sample journal entry (${debit.number} ${debit.name} / ${credit.number} ${credit.name}, 100.00 DKK): voucher ${posted.data.voucher_number}. Its receipt:`,
  );
  io.out(JSON.stringify(receipt.data, null, 2));
}
