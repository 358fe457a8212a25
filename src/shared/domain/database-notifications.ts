/** What a listener on a notification channel is told (DatabaseNotifications.listen). */
export interface NotificationListener {
  /** A NOTIFY on the channel: sent by a transaction of this or any instance, delivered once it committed. */
  notified(): void;
  /**
   * The listener is up (true: from now on every notification arrives) or lost (false: notifications may be
   * missed until it is up again, which is told by another `listening(true)`).
   */
  listening(up: boolean): void;
}

/** A running LISTEN; `close()` ends it (idempotent). */
export interface Listening {
  close(): Promise<void>;
}

/**
 * Port: the database's notifications (PostgreSQL LISTEN/NOTIFY), so that a background job wakes when a
 * transaction tells it there is work instead of asking the database every few milliseconds (issue 47: an idle
 * instance costs nothing). A NOTIFY reaches every listener of the database, so work written on one instance
 * wakes the jobs of all of them. A listener may be lost (a database fault): callers keep a safety poll.
 */
export abstract class DatabaseNotifications {
  abstract listen(channel: string, listener: NotificationListener): Listening;
}
