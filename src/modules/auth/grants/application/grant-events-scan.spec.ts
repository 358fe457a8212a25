import type { Transactions } from '../../../../shared/database/transactions';
import { Clock } from '../../../../shared/domain/clock';
import type { Scheduler } from '../../../../shared/domain/scheduler';
import type { GrantEvent } from '../domain/grant-events';
import type { ExpiredGrant, ExpiringGrant, GrantRepository } from '../domain/grant.repository';
import { GrantEventsScan } from './grant-events-scan';

class FixedClock extends Clock {
  now(): Date {
    return new Date('2026-11-26T09:00:00.000Z');
  }
}

const grant = (n: number, told = true) => ({
  organizationId: `00000000-0000-4000-8000-00000000000${n}`,
  id: `10000000-0000-4000-8000-00000000000${n}`,
  appId: `20000000-0000-4000-8000-00000000000${n}`,
  expiresAt: new Date(`2026-11-2${n}T00:00:00.000Z`),
  told,
});

/** A repository that hands out queued batches and records what was written, per transaction. */
function aRepository(expired: ExpiredGrant[][], expiring: ExpiringGrant[][]) {
  const calls: string[] = [];
  const written: GrantEvent[] = [];
  const repo = {
    claimExpired: async (_tx: unknown, _now: Date, limit: number) => {
      calls.push(`expired ${limit}`);
      return expired.shift() ?? [];
    },
    claimExpiring: async (_tx: unknown, now: Date, until: Date, limit: number) => {
      calls.push(`expiring ${limit} ${(until.getTime() - now.getTime()) / 86_400_000}`);
      return expiring.shift() ?? [];
    },
    insertEvents: async (_tx: unknown, events: readonly GrantEvent[]) => {
      written.push(...events);
    },
  };
  return { repo: repo as unknown as GrantRepository, calls, written };
}

const transactions = { run: (work: (tx: unknown) => Promise<unknown>) => work({}) } as unknown as Transactions;
const scheduler = {} as Scheduler;

describe('GrantEventsScan (CONTRACT §18)', () => {
  it('claims expiries batch by batch until a batch is short, then expiring ones 14 days ahead; events only for the told', async () => {
    const { repo, calls, written } = aRepository([[grant(1), grant(2, false)], [grant(3)]], [[grant(4), grant(5, false)], [grant(6)]]);
    const result = await new GrantEventsScan(repo, transactions, new FixedClock(), scheduler).runOnce(2);
    expect(calls).toEqual(['expired 2', 'expired 2', 'expiring 2 14', 'expiring 2 14']);
    expect(result).toEqual({ expired: 2, expiring: 2 });
    expect(written.map((e) => [e.type, JSON.parse(e.body).data.grant_id])).toEqual([
      ['grant.revoked', grant(1).id],
      ['grant.revoked', grant(3).id],
      ['grant.expiring', grant(4).id],
      ['grant.expiring', grant(6).id],
    ]);
    // an expiry's `at` is the grant's expiry; the event's timestamp is now
    expect(JSON.parse(written[0].body)).toEqual({
      type: 'grant.revoked',
      timestamp: '2026-11-26T09:00:00.000Z',
      data: { grant_id: grant(1).id, organization_id: grant(1).organizationId, reason: 'expired', at: '2026-11-21T00:00:00.000Z' },
    });
    expect(new Set(written.map((e) => e.id)).size).toBe(4);
  });

  it('is scheduled at start, often enough that an expiry is told within 5 minutes (CONTRACT §18), and stops with the instance', async () => {
    const { repo, calls } = aRepository([], []);
    const scheduled: Array<{ intervalMs: number; run: (stopping: () => boolean) => Promise<unknown> }> = [];
    let stopped = 0;
    const recording = {
      periodically: (intervalMs: number, run: (stopping: () => boolean) => Promise<unknown>) => {
        scheduled.push({ intervalMs, run });
        return { tick: () => undefined, stop: async () => void stopped++ };
      },
    } as unknown as Scheduler;
    const scan = new GrantEventsScan(repo, transactions, new FixedClock(), recording);
    scan.onApplicationBootstrap();
    expect(scheduled).toHaveLength(1);
    // a scan that takes up to a minute still leaves the next one due well inside the 5 minutes
    expect(scheduled[0].intervalMs).toBeLessThanOrEqual(4 * 60_000);
    await scheduled[0].run(() => false);
    // its run is the scan: expiries, then those expiring within 14 days (batches of 100)
    expect(calls).toEqual(['expired 100', 'expiring 100 14']);
    await scan.onApplicationShutdown();
    expect(stopped).toBe(1);
  });
});
