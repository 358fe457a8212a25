import { Injectable } from '@nestjs/common';
import { Transactions } from '../../../shared/database/transactions';
import { Clock } from '../../../shared/domain/clock';
import type { Transaction } from '../../../shared/domain/transaction';
import { isUuid } from '../../../shared/http/validation/constraints';
import { AttachmentsService } from '../../attachments';
import { AppReadRepository } from '../../auth/apps';
import type { ConsentSession } from '../../auth/consent';
import { GrantReadRepository, GrantService } from '../../auth/grants';
import { OrganizationReadRepository } from '../../auth/organizations';
import { type ActivityEntry, type ActivityLine, JournalActivityRepository } from '../../journal';
import { ReceiptsService } from '../../receipts';

/** CONTRACT §21 (changing §18's 50): the Activity of an app on Connected apps, the latest 10 a page, with Older. */
export const ACTIVITY_PAGE = 10;
/** The CSV of an app's activity holds at most this many lines (a bound on one download's work). */
export const CSV_MAX_LINES = 100_000;

/** One app's grant on Connected apps, with its activity page. */
export interface ConnectionView {
  grantId: string;
  appId: string;
  appName: string;
  scopes: string[];
  accounts: Array<{ number: string; name: string }>;
  grantedAt: Date;
  expiresAt: Date;
  mandate: boolean;
  lastCallAt: Date | null;
  activity: { entries: ActivityEntry[]; page: number; hasMore: boolean };
}

export interface ConnectionRow {
  organizationId: string;
  organizationName: string;
  grantId: string;
  appName: string;
  appId: string;
  scopes: string[];
  grantedAt: Date;
  expiresAt: Date;
  mandate: boolean;
  accounts: Array<{ number: string; name: string }>;
}

/**
 * The owner's Connected apps (CONTRACT §11, §18): the grants in force of the organizations the signed-in
 * owner owns (organizations, grants and apps through their read ports), each app's activity (journal's
 * `JournalActivityRepository`), last operation (`ReceiptsService`), CSV lines and attachments
 * (`AttachmentsService`), and the revocation (`GrantService`). The session is the consent flow's (one
 * sign-in, CONTRACT §21): this module sits above consent, journal and attachments, none of which knows it.
 */
@Injectable()
export class ConnectedAppsService {
  constructor(
    private readonly grants: GrantService,
    private readonly organizationReads: OrganizationReadRepository,
    private readonly grantReads: GrantReadRepository,
    private readonly appReads: AppReadRepository,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    private readonly journalActivity: JournalActivityRepository,
    private readonly receipts: ReceiptsService,
    private readonly attachments: AttachmentsService,
  ) {}

  /**
   * Connected apps (CONTRACT §18): per organization, each app with a grant in force — scopes,
   * accounts, granted, expires, mandate, last activity and a page of its activity (`pages`: the page
   * asked for per grant id, 1 when not asked).
   */
  async connections(session: ConsentSession, pages: ReadonlyMap<string, number> = new Map()) {
    if (session.userId === null) return [];
    return this.transactions.run(async (m) => {
      const rows = await this.connectionRows(m, session.userId as string, this.clock.now());
      const byOrg = new Map<string, { id: string; name: string; apps: ConnectionView[] }>();
      const last = new Map<string, Map<string, Date>>();
      for (const r of rows) {
        if (!last.has(r.organizationId)) {
          const appIds = [...new Set(rows.filter((x) => x.organizationId === r.organizationId).map((x) => x.appId))];
          last.set(r.organizationId, await this.receipts.lastOperations(m, r.organizationId, appIds));
        }
        const page = pages.get(r.grantId) ?? 1;
        const entries = await this.journalActivity.entries(m, r.organizationId, r.appId, { limit: ACTIVITY_PAGE + 1, offset: (page - 1) * ACTIVITY_PAGE });
        const entry = byOrg.get(r.organizationId) ?? { id: r.organizationId, name: r.organizationName, apps: [] };
        entry.apps.push({
          grantId: r.grantId,
          appId: r.appId,
          appName: r.appName,
          scopes: r.scopes,
          accounts: r.accounts,
          grantedAt: r.grantedAt,
          expiresAt: r.expiresAt,
          mandate: r.mandate,
          lastCallAt: last.get(r.organizationId)?.get(r.appId) ?? null,
          activity: { entries: entries.slice(0, ACTIVITY_PAGE), page, hasMore: entries.length > ACTIVITY_PAGE },
        });
        byOrg.set(r.organizationId, entry);
      }
      return [...byOrg.values()];
    });
  }

  /** The grant in force of an organization the signed-in owner owns, with its app's and organization's names; null for any other id. */
  async connection(
    session: ConsentSession,
    grantId: unknown,
  ): Promise<{ grantId: string; appId: string; appName: string; organizationId: string; organizationName: string } | null> {
    if (session.userId === null || !isUuid(grantId)) return null;
    const id = grantId.toLowerCase();
    const rows = await this.transactions.run((m) => this.connectionRows(m, session.userId as string, this.clock.now()));
    const r = rows.find((x) => x.grantId === id);
    return r ? { grantId: r.grantId, appId: r.appId, appName: r.appName, organizationId: r.organizationId, organizationName: r.organizationName } : null;
  }

  /**
   * An attachment of an entry the grant's app posted to the grant's organization (CONTRACT §18: each
   * attachment downloadable by the owner), or null when the grant is not the signed-in owner's or the
   * attachment is not of such an entry.
   */
  async attachment(session: ConsentSession, grantId: unknown, entryId: unknown, attachmentId: unknown) {
    if (!isUuid(entryId) || !isUuid(attachmentId)) return null;
    const c = await this.connection(session, grantId);
    if (!c) return null;
    return this.attachments.storedFor(
      { organizationId: c.organizationId, appId: c.appId, environment: 'production' },
      entryId.toLowerCase(),
      attachmentId.toLowerCase(),
    );
  }

  /** The lines of every entry the grant's app posted to its organization (the CSV), or null when the grant is not the owner's. */
  async activityLines(session: ConsentSession, grantId: unknown): Promise<{ appName: string; organizationName: string; lines: ActivityLine[] } | null> {
    const c = await this.connection(session, grantId);
    if (!c) return null;
    const lines = await this.transactions.run((m) => this.journalActivity.lines(m, c.organizationId, c.appId, CSV_MAX_LINES));
    return { appName: c.appName, organizationName: c.organizationName, lines };
  }

  /**
   * Revokes a grant of an organization the signed-in owner owns, and leaves the status for the page the
   * 303 leads to (CONTRACT §18); false for any other id (a grant already revoked, a replayed form: nothing happens twice).
   */
  async revokeConnection(session: ConsentSession, grantId: unknown): Promise<{ appName: string; organizationName: string } | null> {
    const c = await this.connection(session, grantId);
    if (!c) return null;
    await this.grants.revokeGrant(c.grantId);
    return { appName: c.appName, organizationName: c.organizationName };
  }

  /**
   * The grants in force of the organizations the user owns, with organization, app and accounts, ordered
   * by organization name and id, app name, grant id. The names are ordered by the database (its text
   * collation), so they are never compared here: organizations come in the owners' order (name, id) and
   * apps are ranked by their position in the apps' order (name, id), equal names sharing a rank; only the
   * grant ids (lower-case uuids, whose text order is the uuid order) are compared here.
   */
  private async connectionRows(tx: Transaction, userId: string, now: Date): Promise<ConnectionRow[]> {
    const organizations = await this.organizationReads.ownedBy(tx, userId);
    if (organizations.length === 0) return [];
    const grants = await this.grantReads.grantsInForce(
      tx,
      organizations.map((o) => o.id),
      now,
    );
    if (grants.length === 0) return [];
    const apps = await this.appReads.names(tx, [...new Set(grants.map((g) => g.appId))]);
    const appName = new Map<string, string>();
    const appRank = new Map<string, number>();
    let rank = -1;
    let previous: string | undefined;
    for (const a of apps) {
      if (a.name !== previous) rank += 1;
      previous = a.name;
      appName.set(a.id, a.name);
      appRank.set(a.id, rank);
    }
    const pairs = new Map<string, { organizationId: string; accountId: string }>();
    for (const g of grants)
      for (const accountId of g.accountIds) pairs.set(`${g.organizationId}/${accountId}`, { organizationId: g.organizationId, accountId });
    const accounts = await this.organizationReads.accounts(
      tx,
      [...pairs.values()].map((p) => p.organizationId),
      [...pairs.values()].map((p) => p.accountId),
    );
    const rows: ConnectionRow[] = [];
    for (const o of organizations) {
      const ofOrganization = grants
        .filter((g) => g.organizationId === o.id && appRank.has(g.appId))
        .sort((x, y) => (appRank.get(x.appId) as number) - (appRank.get(y.appId) as number) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
      for (const g of ofOrganization) {
        const selected = new Set(g.accountIds);
        rows.push({
          organizationId: g.organizationId,
          organizationName: o.name,
          grantId: g.id,
          appId: g.appId,
          appName: appName.get(g.appId) as string,
          scopes: g.scopes,
          grantedAt: g.grantedAt,
          expiresAt: g.expiresAt,
          mandate: g.mandate,
          accounts: accounts.filter((a) => a.organizationId === g.organizationId && selected.has(a.id)).map((a) => ({ number: a.number, name: a.name })),
        });
      }
    }
    return rows;
  }
}
