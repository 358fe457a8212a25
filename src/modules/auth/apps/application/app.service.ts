import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../../../shared/domain/clock';
import { Transactions } from '../../../../shared/database/transactions';
import { AppRepository, type PendingRevision } from '../domain/app.repository';
import { AppNotApprovedError, NotFoundError, ResourceConflictError, toInputError } from '../../../../shared/domain/errors';
import { type PublisherDraft, publisherProblems, publisherViolations } from '../domain/app-publisher';

/** Console: apps, their numbered revisions and approval (CONTRACT §8 "Production", §10). */
@Injectable()
export class AppService {
  constructor(
    private readonly apps: AppRepository,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  async createApp(name: string): Promise<{ id: string }> {
    const id = randomUUID();
    await this.transactions.run((m) => this.apps.create(m, { id, name }));
    return { id };
  }

  /**
   * Revisions are numbered 1, 2, 3, … per app; the app row is locked so numbers never collide. With
   * `unlessPending` (the developer console, issue 35), none is made while one of the app's revisions
   * waits for review (newer than the approved one, not approved): then null.
   */
  async createRevision(appId: string): Promise<{ id: string; number: number }>;
  async createRevision(appId: string, options: { unlessPending: true }): Promise<{ id: string; number: number } | null>;
  async createRevision(appId: string, options: { unlessPending?: boolean } = {}): Promise<{ id: string; number: number } | null> {
    const app = appId;
    const id = randomUUID();
    const number = await this.transactions.run(async (m) => {
      if (!(await this.apps.find(m, app, { lock: true }))) throw new NotFoundError('app');
      if (options.unlessPending && (await this.apps.hasPendingRevision(m, app))) return null;
      return this.apps.createRevision(m, app, id);
    });
    return number === null ? null : { id, number };
  }

  /**
   * Makes the revision THE approved revision of the app. Tokens issued under the previously approved
   * revision are refused from then on with 403 app_revision_changed (CONTRACT §8).
   */
  async approveRevision(appId: string, revisionId: string): Promise<{ id: string; number: number; approved: true }> {
    const app = appId;
    const id = revisionId;
    const number = await this.transactions.run(async (m) => {
      if (!(await this.apps.find(m, app, { lock: true }))) throw new NotFoundError('app');
      return this.apps.approveRevision(m, app, id, this.clock.now());
    });
    if (number === null) throw new NotFoundError('revision');
    return { id, number, approved: true };
  }

  /**
   * The developer console's publisher fields (CONTRACT §18): name, website and privacy policy, the
   * addresses https only; an empty field clears it. A bad field is an invalid_input naming it.
   */
  async setPublisher(appId: string, input: PublisherDraft): Promise<void> {
    const clean = { name: input.name.trim(), website: input.website.trim(), privacyPolicy: input.privacyPolicy.trim(), cvr: input.cvr.replace(/\s/g, '') };
    const problems = publisherProblems(clean);
    if (Object.keys(problems).length > 0) throw toInputError(publisherViolations(problems));
    const found = await this.transactions.run((m) =>
      this.apps.setPublisher(m, appId, {
        name: clean.name || null,
        website: clean.website || null,
        privacyPolicy: clean.privacyPolicy || null,
        cvr: clean.cvr || null,
      }),
    );
    if (!found) throw new NotFoundError('app');
  }

  /**
   * CONTRACT §21: the operator verified the publisher of the app's approved revision (owners no longer
   * read "Not verified"). With `cvr`, the operator states the CVR number checked: it must be the one the
   * approved revision carries (409 otherwise: the publisher changed under the operator). 409
   * app_not_approved while no revision is approved.
   */
  async verifyPublisher(appId: string, checked: { cvr?: string }): Promise<{ app_id: string; publisher_verified: true }> {
    await this.transactions.run(async (m) => {
      if (!(await this.apps.find(m, appId, { lock: true }))) throw new NotFoundError('app');
      const publisher = await this.apps.verifyApprovedPublisher(m, appId, this.clock.now());
      if (!publisher) throw new AppNotApprovedError();
      if (checked.cvr !== undefined && checked.cvr !== publisher.cvr) {
        throw new ResourceConflictError("The approved revision's publisher has another CVR number; nothing was verified");
      }
    });
    return { app_id: appId, publisher_verified: true };
  }

  /** Revisions submitted and not yet approved, oldest first (the operator's review queue). */
  pendingRevisions(): Promise<PendingRevision[]> {
    return this.transactions.run((m) => this.apps.pendingRevisions(m));
  }
}
