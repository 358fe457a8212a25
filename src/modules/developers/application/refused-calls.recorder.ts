import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Transactions } from '../../../shared/database/transactions';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { Clock } from '../../../shared/domain/clock';
import type { ProblemObserver } from '../../../shared/http/problem.filter';
import { DeveloperRepository, type RefusedCall } from '../domain/developer.repository';
import { REFUSED_CALLS_KEPT } from './developer-apps.service';

/** At most this many refusals wait for their insert; beyond it new ones are dropped (and counted in a log line). */
const QUEUE_LIMIT = 1000;

/**
 * Records refused partner calls for the developer console (CONTRACT §15) OFF the request's path: the
 * problem filter calls `observe` after the problem body is written, only for a refusal, and only
 * when the partner guard knew the caller (a call with a missing or unknown token has no app and is
 * skipped). `observe` only queues; the insert runs later, in the background, a batch at a time, and
 * keeps the newest 50 per app and environment. A success answer never reaches this code.
 */
@Injectable()
export class RefusedCallsRecorder implements OnApplicationShutdown {
  private readonly logger = new Logger('refused-calls');
  private queue: RefusedCall[] = [];
  private running: Promise<void> | null = null;
  private dropped = 0;

  constructor(
    private readonly repo: DeveloperRepository,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  readonly observe: ProblemObserver = (req, answer) => {
    const caller = (req as typeof req & { caller?: CallerContext }).caller;
    if (!caller) return;
    if (this.queue.length >= QUEUE_LIMIT) {
      this.dropped++;
      return;
    }
    this.queue.push({
      appId: caller.appId,
      environment: caller.environment,
      at: this.clock.now(),
      method: req.method,
      // the path only: never the query string
      path: req.path.slice(0, 500),
      status: answer.status,
      code: answer.code,
      requestId: req.id,
      pointers: answer.pointers.slice(0, 100).map((p) => p.slice(0, 200)),
    });
    if (!this.running) this.running = new Promise<void>((resolve) => setImmediate(() => void this.flush().finally(resolve)));
  };

  /** Writes what is queued (tests and shutdown wait for it). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, 100);
        try {
          await this.transactions.run((m) => this.repo.recordRefusals(m, batch, REFUSED_CALLS_KEPT));
        } catch (err) {
          this.logger.warn({ err, calls: batch.length }, 'refused calls not recorded');
        }
      }
      if (this.dropped > 0) {
        this.logger.warn({ dropped: this.dropped }, 'refused calls dropped: too many waiting');
        this.dropped = 0;
      }
    } finally {
      this.running = null;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.settled();
  }
}
