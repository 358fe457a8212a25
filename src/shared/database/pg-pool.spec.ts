import { EventEmitter } from 'node:events';
import { PgPool, type PoolDriver } from './pg-pool';
import { SerializedPGlitePool } from './serialized-pglite-pool';

/** A pool that records what is asked of it. */
class FakePool extends EventEmitter {
  readonly asked: string[] = [];
  totalCount = 3;
  idleCount = 1;
  waitingCount = 2;

  async query(text: string): Promise<{ rows: unknown[] }> {
    this.asked.push(`query ${text}`);
    return { rows: [{ self: this === fake }] };
  }

  connect(): void {
    this.asked.push('connect');
  }

  end(callback?: () => void): void {
    this.asked.push('end');
    callback?.();
  }
}

let fake: FakePool;

describe('PgPool', () => {
  beforeEach(() => {
    fake = new FakePool();
  });

  it('hands TypeORM this pool, whose end leaves it open: the service closes it', async () => {
    const closed: string[] = [];
    const pool = new PgPool('postgres', fake as unknown as PoolDriver, async () => void closed.push('closed'));
    const { Pool } = pool.typeormDriver();
    const typeorms = new Pool() as PoolDriver;
    // the same pool: its methods run on it (`this` is the pool), events reach its listeners
    await expect(typeorms.query('SELECT 1')).resolves.toEqual({ rows: [{ self: true }] });
    const heard: string[] = [];
    typeorms.on('error', () => heard.push('error'));
    fake.emit('error', new Error('x'));
    expect(heard).toEqual(['error']);
    expect(typeorms.totalCount).toBe(3);
    // TypeORM's destroy() ends its pool: nothing happens to ours
    const ended = await new Promise<boolean>((resolve) => typeorms.end(() => resolve(true)));
    expect(ended).toBe(true);
    expect(fake.asked).toEqual(['query SELECT 1']);
    expect(closed).toEqual([]);
  });

  it('closes once, however often it is ended', async () => {
    let closes = 0;
    const pool = new PgPool('postgres', fake as unknown as PoolDriver, async () => void closes++);
    await pool.end();
    await pool.end();
    expect(closes).toBe(1);
  });

  it("gives the pool's gauges, in use as total less idle when the pool does not count it", () => {
    const pool = new PgPool('postgres', fake as unknown as PoolDriver, async () => undefined);
    expect(pool.stats).toEqual({ total: 3, idle: 1, inUse: 2, waiting: 2 });
    expect(pool.embedded).toBeNull();
  });

  it('is the serialized pool on the embedded store (one way in: the same pool for TypeORM, Sql and LISTEN)', async () => {
    const pool = PgPool.open({ kind: 'pglite', dataDir: null });
    expect(pool.kind).toBe('pglite');
    expect(pool.embedded).toBeInstanceOf(SerializedPGlitePool);
    expect(pool.driver).toBe(pool.embedded);
    expect(pool.stats).toEqual({ total: 0, idle: 0, inUse: 0, waiting: 0 });
    await pool.end();
  });

  it('is a node-postgres pool on PostgreSQL, made from the configuration without connecting', async () => {
    const pool = PgPool.open({ kind: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none' });
    expect(pool.kind).toBe('postgres');
    expect(pool.embedded).toBeNull();
    expect((pool.driver as unknown as { options: { max: number; application_name: string } }).options).toMatchObject({
      max: 10,
      application_name: 'partner-api',
    });
    await pool.end();
    expect((pool.driver as unknown as { ended: boolean }).ended).toBe(true);
  });
});
