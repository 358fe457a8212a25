import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppConfig } from '../../../shared/config/app-config';
import type { Transactions } from '../../../shared/database/transactions';
import { Clock } from '../../../shared/domain/clock';
import { type Repetition, Scheduler } from '../../../shared/domain/scheduler';
import type { DeveloperRepository, LoggedCallColumns } from '../domain/developer.repository';
import { REQUEST_LOG_QUEUE_LIMIT, RequestLogRecorder } from './request-log.recorder';

class FixedClock extends Clock {
  now(): Date {
    return new Date('2026-11-25T10:00:00.000Z');
  }
}

class NoScheduler extends Scheduler {
  every(): Repetition {
    return { cancel: () => undefined };
  }
}

/** Records what reaches the table; the inserts can be held back, as a slow database would. */
class Table {
  rows: Array<{ [K in keyof LoggedCallColumns]: LoggedCallColumns[K][number] }> = [];
  statements = 0;
  release: (() => void) | null = null;
  hold = false;
  repo = {
    recordCalls: async (_tx: unknown, calls: LoggedCallColumns) => {
      this.statements++;
      if (this.hold) await new Promise<void>((r) => (this.release = r));
      for (let i = 0; i < calls.appId.length; i++) {
        this.rows.push(Object.fromEntries(Object.entries(calls).map(([field, column]) => [field, (column as unknown[])[i]])) as Table['rows'][number]);
      }
    },
  } as unknown as DeveloperRepository;
  transactions = { run: (work: (m: unknown) => Promise<unknown>) => work({}) } as unknown as Transactions;
}

const request = (caller: { appId: string; environment: string } | undefined, url = '/api/partner/sandbox/v1/accounts') =>
  ({
    caller,
    method: 'GET',
    originalUrl: url,
    headers: { 'idempotency-key': 'abcdefgh-rest-of-key' },
    id: 'req-1',
    ip: '127.0.0.1',
  }) as unknown as IncomingMessage;
const response = (status: number) => ({ statusCode: status, locals: {} }) as unknown as ServerResponse;

describe('RequestLogRecorder (CONTRACT §15: recording stays off the request path)', () => {
  const make = (table: Table, days = 7) =>
    new RequestLogRecorder(table.repo, table.transactions, new FixedClock(), new NoScheduler(), { requestLogRetentionDays: days } as AppConfig);
  const app = { appId: '6f1c1d2e-0000-4000-8000-000000000001', environment: 'sandbox' };

  it('queues without writing on the call, then writes the batch in one statement', async () => {
    const table = new Table();
    const recorder = make(table);
    for (let i = 0; i < 3; i++) recorder.record(request(app, `/a?n=${i}`), response(200), 1.4);
    expect(table.statements).toBe(0);
    await recorder.settled();
    expect(table.statements).toBe(1);
    expect(table.rows.map((r) => r.path)).toEqual(['/a?n=0', '/a?n=1', '/a?n=2']);
    expect(table.rows[0]).toMatchObject({ idempotencyKeyPrefix: 'abcdefgh', durationMs: 1, clientAddress: '127.0.0.1', code: null });
  });

  it('keeps every field as the request had it, a page (≤ 500 calls) per statement', async () => {
    const table = new Table();
    const recorder = make(table);
    // a path as Node gives it (one character per byte received: "æ" in UTF-8 arrives as "Ã¦"), longer than 2,000
    const long = `/api/partner/sandbox/v1/products?q=Ã¦"\\${'x'.repeat(2100)}`;
    const refused = { statusCode: 400, locals: { problemCode: 'invalid_input', problemPointers: ['/lines/0/amount', '/name'] } } as unknown as ServerResponse;
    const noKey = { caller: app, method: 'POST', originalUrl: long, headers: {}, id: 'r-2', ip: '::1' } as unknown as IncomingMessage;
    recorder.record(noKey, refused, 12.6);
    for (let i = 0; i < 1000; i++) recorder.record(request(app, `/p/${i}`), response(201), 2);
    await recorder.settled();
    expect(table.statements).toBe(3); // 500, 500 and 1
    expect(table.rows).toHaveLength(1001);
    expect(table.rows[0]).toEqual({
      appId: app.appId,
      environment: 'sandbox',
      at: Date.parse('2026-11-25T10:00:00.000Z'),
      method: 'POST',
      path: long.slice(0, 2000),
      status: 400,
      code: 'invalid_input',
      pointers: '/lines/0/amount\n/name',
      durationMs: 13,
      requestId: 'r-2',
      clientAddress: '::1',
      idempotencyKeyPrefix: null,
    });
    expect(table.rows[1000]).toMatchObject({ path: '/p/999', status: 201, code: null, pointers: '', idempotencyKeyPrefix: 'abcdefgh', requestId: 'req-1' });
  });

  it('keeps the order of calls across pages, and a reused page keeps nothing of the calls before', async () => {
    const table = new Table();
    const recorder = make(table);
    for (let i = 0; i < 1200; i++) recorder.record(request(app, `/${String(i).padStart(4, '0')}${'y'.repeat(1995)}`), response(200), 1);
    await recorder.settled();
    const refused = { statusCode: 409, locals: { problemCode: 'idempotency_key_reused', problemPointers: [] } } as unknown as ServerResponse;
    recorder.record(request(app, '/after'), refused, 1);
    recorder.record({ ...request(app, '/plain'), headers: {} } as unknown as IncomingMessage, response(200), 1);
    await recorder.settled();
    expect(table.statements).toBe(4);
    expect(table.rows.slice(0, 1200).map((r) => (r.path as string).slice(0, 5))).toEqual(
      Array.from({ length: 1200 }, (_, i) => `/${String(i).padStart(4, '0')}`),
    );
    expect(table.rows[1200]).toMatchObject({ path: '/after', code: 'idempotency_key_reused', pointers: '', status: 409 });
    expect(table.rows[1201]).toMatchObject({ path: '/plain', code: null, pointers: '', idempotencyKeyPrefix: null, status: 200 });
  });

  it('skips a call without a known app, and everything when REQUEST_LOG_RETENTION_DAYS is 0', async () => {
    const table = new Table();
    const recorder = make(table);
    recorder.record(request(undefined), response(401), 1);
    await recorder.settled();
    expect(table.rows).toEqual([]);
    const off = make(table, 0);
    expect(off.enabled).toBe(false);
    off.record(request(app), response(200), 1);
    await off.settled();
    expect(table.rows).toEqual([]);
  });

  it(`drops and counts calls beyond ${REQUEST_LOG_QUEUE_LIMIT} waiting, while the database is slow`, async () => {
    const table = new Table();
    table.hold = true;
    const recorder = make(table);
    recorder.record(request(app), response(200), 1);
    // the first insert is now held; everything after it waits in the queue
    await new Promise((r) => setTimeout(r, 250));
    expect(table.statements).toBe(1);
    for (let i = 0; i < REQUEST_LOG_QUEUE_LIMIT + 25; i++) recorder.record(request(app), response(200), 1);
    expect(recorder.droppedCalls()).toBe(25);
    table.hold = false;
    table.release!();
    await recorder.settled();
    expect(table.rows).toHaveLength(1 + REQUEST_LOG_QUEUE_LIMIT);
  });
});
