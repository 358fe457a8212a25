import { Logger } from '@nestjs/common';
import type { DatabaseConfig } from '../config/app-config';
import { DatabaseNotifications, type Listening, type NotificationListener } from '../domain/database-notifications';
import { errorSummary, poolConnectionFor } from './host-selection';
import type { PgPool } from './pg-pool';
import type { SerializedPGlitePool } from './serialized-pglite-pool';

/** The first wait before a lost listener connects again; doubled on each failure up to RECONNECT_MAX_MS. */
export const RECONNECT_MIN_MS = 250;
export const RECONNECT_MAX_MS = 10_000;

const logger = new Logger('database-notifications');

/**
 * PostgreSQL: each `listen` holds one dedicated connection outside the pool (a pooled connection is
 * returned after each statement; LISTEN needs a session that stays), on the writable host (NOTIFY is not
 * sent to standbys), with TCP keep-alive. When it is lost — the database restarted, the network cut — the
 * listener is told `listening(false)` and the connection is made again after a growing pause; failures
 * are logged with their code only (never the URI, which may hold a password).
 */
export class PostgresNotifications extends DatabaseNotifications {
  constructor(private readonly url: string) {
    super();
  }

  listen(channel: string, listener: NotificationListener): Listening {
    const { connectionString, Client } = poolConnectionFor(this.url);
    let closed = false;
    let current: InstanceType<typeof Client> | null = null;
    let retry: NodeJS.Timeout | null = null;
    let pause = RECONNECT_MIN_MS;

    const connect = async (): Promise<void> => {
      retry = null;
      if (closed) return;
      const client = new Client({ connectionString, application_name: 'partner-api-listen', connectionTimeoutMillis: 5_000, keepAlive: true });
      current = client;
      let lost = false;
      const lose = (err?: unknown) => {
        if (lost) return;
        lost = true;
        if (current === client) current = null;
        client.end().catch(() => undefined);
        listener.listening(false);
        if (closed) return;
        logger.warn(
          { channel, error: err === undefined ? 'connection ended' : errorSummary(err), retryInMs: pause },
          'database notification listener lost; polling until it is back',
        );
        retry = setTimeout(start, pause);
        retry.unref();
        pause = Math.min(pause * 2, RECONNECT_MAX_MS);
      };
      client.on('error', lose);
      client.on('end', () => lose());
      client.on('notification', (m: { channel: string }) => {
        if (m.channel === channel) listener.notified();
      });
      try {
        await client.connect();
        await client.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
      } catch (err) {
        lose(err);
        return;
      }
      if (lost) return;
      if (closed) {
        lose();
        return;
      }
      pause = RECONNECT_MIN_MS;
      listener.listening(true);
    };
    // a reconnect loop in the background: connect() handles its own faults; this logs anything it did not foresee
    const start = (): void => {
      connect().catch((err: unknown) => logger.warn({ channel, error: errorSummary(err) }, 'database notification listener not started; polling'));
    };
    start();

    return {
      close: async () => {
        closed = true;
        if (retry) clearTimeout(retry);
        retry = null;
        const client = current;
        current = null;
        if (client) await client.end().catch(() => undefined);
      },
    };
  }
}

/**
 * The embedded store (PGlite): one process, one session. Its LISTEN is taken through the serialized pool (so
 * that it never runs inside another holder's transaction, whose rollback would undo it); a NOTIFY of a
 * committed transaction of this process calls the listener. Never lost while the store is open.
 */
export class EmbeddedNotifications extends DatabaseNotifications {
  constructor(private readonly pool: SerializedPGlitePool) {
    super();
  }

  listen(channel: string, listener: NotificationListener): Listening {
    let closed = false;
    const listening = this.pool
      .listen(channel, () => listener.notified())
      .then(
        (unlisten) => {
          if (!closed) listener.listening(true);
          return unlisten;
        },
        (err) => {
          logger.warn({ channel, error: errorSummary(err) }, 'database notification listener not started; polling');
          return null;
        },
      );
    return {
      close: async () => {
        if (closed) return;
        closed = true;
        const unlisten = await listening;
        await unlisten?.().catch(() => undefined);
      },
    };
  }
}

/** The notifications of the service's store: PostgreSQL's dedicated listeners, or the embedded store's own. */
export function databaseNotifications(database: DatabaseConfig, pool: PgPool): DatabaseNotifications {
  if (database.kind === 'postgres') return new PostgresNotifications(database.url);
  const embedded = pool.embedded;
  if (!embedded) throw new Error('the embedded store runs on the serialized PGlite pool');
  return new EmbeddedNotifications(embedded);
}
