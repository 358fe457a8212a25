import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

const BIN = '/usr/lib/postgresql/15/bin';

/** Runs a PostgreSQL binary as the `postgres` OS user (initdb and the server refuse to run as root). */
function asPostgres(args: string[], timeoutMs = 60_000): string {
  const [cmd, ...rest] = args;
  return execFileSync('runuser', ['-u', 'postgres', '--', join(BIN, cmd), ...rest], {
    encoding: 'utf8',
    timeout: timeoutMs,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * A private PostgreSQL 15 cluster for the fault suite, on its own free port in a temporary directory:
 * it may be restarted and crashed at will; the shared server on 5432 is never touched.
 */
export class PrivateCluster {
  readonly dir: string;
  readonly dataDir: string;

  private constructor(
    readonly port: number,
    readonly name = 'primary',
  ) {
    this.dir = mkdtempSync(join(tmpdir(), 'partner-faults-pg-'));
    chownSync(this.dir, uid('postgres'), gid('postgres'));
    this.dataDir = join(this.dir, 'data');
  }

  static async create(port: number): Promise<PrivateCluster> {
    const c = new PrivateCluster(port);
    asPostgres(['initdb', '-D', c.dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'], 120_000);
    c.start();
    const admin = await c.client('postgres');
    await admin.query('CREATE DATABASE faults');
    await admin.end();
    return c;
  }

  /**
   * A streaming standby of `primary` (pg_basebackup -R) on its own port, started; it reports `name` as
   * its application_name, which the primary's synchronous_standby_names names (failover.faults-spec.ts).
   */
  static async standbyOf(primary: PrivateCluster, port: number, name: string): Promise<PrivateCluster> {
    const c = new PrivateCluster(port, name);
    asPostgres(
      [
        'pg_basebackup',
        '-h',
        '127.0.0.1',
        '-p',
        String(primary.port),
        '-U',
        'postgres',
        '-D',
        c.dataDir,
        '-R',
        '-X',
        'stream',
        '--checkpoint=fast',
        '--no-sync',
      ],
      120_000,
    );
    // the walreceiver's name (the last setting of the file wins over the one -R wrote)
    asPostgresShell(
      `echo "primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=${name}'" >> ${c.dataDir}/postgresql.auto.conf`,
    );
    c.start();
    return c;
  }

  /** `pg_ctl promote`: the standby leaves recovery and accepts writes. */
  promote(): void {
    asPostgres(['pg_ctl', '-D', this.dataDir, '-w', '-t', '60', 'promote']);
  }

  /** SIGKILL of the postmaster alone (its backends notice and exit by themselves). */
  killPostmaster(): void {
    const pid = Number(readFileSync(join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGKILL');
  }

  url(database = 'faults', port = this.port): string {
    return `postgres://postgres@127.0.0.1:${port}/${database}`;
  }

  async client(database = 'faults'): Promise<Client> {
    const c = new Client({ connectionString: this.url(database) });
    c.on('error', () => undefined); // a restart ends this session; the caller reconnects
    await c.connect();
    return c;
  }

  start(): void {
    asPostgres([
      'pg_ctl',
      '-D',
      this.dataDir,
      '-l',
      join(this.dir, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60 -c cluster_name=${this.name}`,
      'start',
    ]);
  }

  // fsync=off only: an immediate stop kills the server, not the OS, so acknowledged commits (written to
  // the WAL before the answer) survive it; synchronous_commit=off would lose them.

  /** `fast`: clients are told 57P01 and disconnected; `immediate`: the server dies like a crash and recovers at start. */
  restart(mode: 'fast' | 'immediate'): void {
    this.stop(mode);
    this.start();
  }

  stop(mode: 'fast' | 'immediate'): void {
    asPostgres(['pg_ctl', '-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
  }

  destroy(): void {
    try {
      this.stop('immediate');
    } catch {
      // not running
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function asPostgresShell(script: string): void {
  execFileSync('runuser', ['-u', 'postgres', '--', 'sh', '-c', script], { stdio: 'ignore', timeout: 10_000 });
}

function uid(user: string): number {
  return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
}

function gid(user: string): number {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
}
