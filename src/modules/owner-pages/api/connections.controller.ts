import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { clientAddress } from '../../../shared/http/client-address';
import { isUuid } from '../../../shared/http/validation/constraints';
import { refusedSignIn, translate } from '../../../shared/web';
import { sendAttachmentBytes } from '../../attachments';
import { type ConsentSession, ConsentSessionService } from '../../auth/consent';
import { ConnectedAppsService } from '../application/connected-apps.service';
import { OwnerPagesHttp, type OwnerPagesRequest } from './owner-pages-http';

const HOME = '/account/connections';

/** One CSV field: quoted when it holds the separator, a quote or a line break; a leading =, +, - or @ is neutralised (no formula runs in the accountant's spreadsheet). */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[;"\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Øre as a plain decimal for a spreadsheet in the language (`7000,00` / `7000.00`): no thousands separator, no currency. */
function csvAmount(lang: 'da' | 'en', minor: string): string {
  const m = BigInt(minor);
  const abs = m < 0n ? -m : m;
  return `${m < 0n ? '-' : ''}${abs / 100n}${lang === 'da' ? ',' : '.'}${String(abs % 100n).padStart(2, '0')}`;
}

/**
 * CONTRACT §11 "Connected apps" and §18 in detail: the owner signs in, sees each app with a grant in
 * force (scopes in words, accounts, granted, expires, mandate, last activity, Revoke and Download CSV, then Activity 10 a page,
 * Download CSV), and can revoke it after confirming. Every POST that succeeds answers 303.
 */
@ApiExcludeController()
@Controller('account/connections')
export class ConnectionsController {
  constructor(
    private readonly consent: ConsentSessionService,
    private readonly connected: ConnectedAppsService,
    private readonly http: OwnerPagesHttp,
  ) {}

  @Get()
  async list(@Req() req: OwnerPagesRequest, @Res() res: Response): Promise<void> {
    let session = await this.connectionsSession(req);
    if (!session || session.userId === null) {
      if (!session) {
        const started = await this.consent.startSession('connections', null);
        this.http.setSession(res, started.cookie);
        session = started.session;
      }
      req.webSession = session;
      const refused = await this.consent.takeFlash(session);
      return this.signInPage(req, res, 200, refused?.fields?.email ?? '', refused?.status?.key ?? null);
    }
    const query = req.query as Record<string, unknown>;
    const pages = new Map<string, number>();
    const page = typeof query.page === 'string' && /^[1-9]\d{0,5}$/.test(query.page) ? Number(query.page) : 1;
    if (isUuid(query.grant)) pages.set(query.grant.toLowerCase(), page);
    const [organizations, flash] = await Promise.all([this.connected.connections(session, pages), this.consent.takeFlash(session)]);
    const lang = this.http.language(res);
    const status = flash?.status ? translate(lang, flash.status.key, flash.status.params) : null;
    const withPaging = organizations.map((o) => ({
      ...o,
      apps: o.apps.map((a) => ({
        ...a,
        activity: {
          ...a.activity,
          olderHref: a.activity.hasMore ? `${HOME}?grant=${a.grantId}&page=${a.activity.page + 1}#grant-${a.grantId}` : null,
          newestHref: a.activity.page > 1 ? `${HOME}#grant-${a.grantId}` : null,
        },
      })),
    }));
    this.http.page(res, 200, 'connections', {
      titleKey: 'consent.connectionsTitle',
      organizations: withPaging,
      flash: { status },
      csrf: this.http.csrfToken(req, res),
    });
  }

  @Post('sign-in')
  @HttpCode(303)
  async signIn(@Req() req: OwnerPagesRequest, @Res() res: Response): Promise<void> {
    const session = await this.connectionsSession(req);
    if (!session || !this.http.validPost(req)) return this.http.forbidden(res);
    const body = req.body as Record<string, unknown>;
    const result = await this.consent.signIn(session, body.email, body.password, body.code, clientAddress(req));
    if (result.kind !== 'ok') {
      // CONTRACT §21: 303 back to the form, so that a reload shows it again and counts nothing
      const cookie = await this.consent.leaveFlash(session, refusedSignIn(result, body.email));
      return this.http.backToForm(res, HOME, cookie);
    }
    this.http.setSession(res, result.cookie);
    this.http.seeOther(res, HOME);
  }

  /** CONTRACT §18: Revoke asks first — this page, whose **Confirm** posts the revocation and **Cancel** goes back. */
  @Get('revoke')
  async confirmRevoke(@Req() req: OwnerPagesRequest, @Res() res: Response): Promise<void> {
    const session = await this.connectionsSession(req);
    if (!session || session.userId === null) return this.http.seeOther(res, HOME);
    const c = await this.connected.connection(session, (req.query as Record<string, unknown>).grant_id);
    if (!c) {
      await this.consent.setFlash(session, { status: { key: 'consent.revokeGone' } });
      return this.http.seeOther(res, `${HOME}#status`);
    }
    const params = { app: c.appName, organization: c.organizationName };
    this.http.page(res, 200, 'confirm', {
      titleKey: 'consent.revokeTitle',
      narrow: true,
      question: this.http.t(res, 'consent.revokeQuestion', params),
      action: `${HOME}/revoke`,
      fields: { grant_id: c.grantId },
      cancelPath: `${HOME}#grant-${c.grantId}`,
      cancelQuery: {},
      csrf: this.http.csrfToken(req, res),
    });
  }

  @Post('revoke')
  @HttpCode(303)
  async revoke(@Req() req: OwnerPagesRequest, @Res() res: Response): Promise<void> {
    const session = await this.connectionsSession(req);
    if (!session || session.userId === null || !this.http.validPost(req)) return this.http.forbidden(res);
    const revoked = await this.connected.revokeConnection(session, (req.body as Record<string, unknown>).grant_id);
    await this.consent.setFlash(session, {
      status: revoked ? { key: 'consent.revoked', params: { app: revoked.appName, organization: revoked.organizationName } } : { key: 'consent.revokeGone' },
    });
    this.http.seeOther(res, `${HOME}#status`);
  }

  /**
   * CONTRACT §18 **Download CSV**: the activity of one app for the accountant — UTF-8 with a BOM,
   * `;`-separated, one row per line of each entry, headings and decimals in the page's language.
   */
  @Get('activity.csv')
  async csv(@Req() req: OwnerPagesRequest, @Res() res: Response): Promise<void> {
    const session = await this.connectionsSession(req);
    if (!session || session.userId === null) return this.http.seeOther(res, HOME);
    const data = await this.connected.activityLines(session, (req.query as Record<string, unknown>).grant_id);
    if (!data) return this.http.message(res, 404, 'web.notFoundTitle', 'consent.revokeGone');
    const lang = this.http.language(res);
    const t = (k: string) => translate(lang, `consent.${k}`);
    const header = [
      'csvVoucher',
      'csvPostingDate',
      'csvDescription',
      'csvLine',
      'csvAccountNumber',
      'csvAccountName',
      'csvDebit',
      'csvCredit',
      'csvLineText',
      'csvAttachments',
    ].map(t);
    const rows = data.lines.map((l) => [
      `${l.voucherYear}-${l.voucherNumber}`,
      l.postingDate,
      l.description ?? '',
      String(l.lineNo),
      l.accountNumber,
      l.accountName,
      csvAmount(lang, l.debitMinor),
      csvAmount(lang, l.creditMinor),
      l.lineText ?? '',
      String(l.attachments),
    ]);
    const body = '\uFEFF' + [header, ...rows].map((r) => r.map(csvField).join(';')).join('\r\n') + '\r\n';
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="activity-${new Date().toISOString().slice(0, 10)}.csv"`);
    res.setHeader('Content-Language', lang);
    res.vary('Accept-Language');
    res.vary('Cookie');
    res.send(Buffer.from(body, 'utf8'));
  }

  /**
   * An attachment of an entry the app posted (CONTRACT §18), to the signed-in owner only: the bytes as
   * stored, as a download, never rendered here (CSP sandbox, nosniff).
   */
  @Get('attachment')
  async attachment(@Req() req: OwnerPagesRequest, @Res() res: Response): Promise<void> {
    const session = await this.connectionsSession(req);
    if (!session || session.userId === null) return this.http.seeOther(res, HOME);
    const q = req.query as Record<string, unknown>;
    const stored = await this.connected.attachment(session, q.grant_id, q.entry_id, q.attachment_id);
    if (!stored) return this.http.message(res, 404, 'web.notFoundTitle', 'consent.revokeGone');
    res.status(200);
    res.setHeader('Content-Type', stored.contentType);
    res.setHeader('Content-Length', String(stored.size));
    res.setHeader('Content-Security-Policy', 'sandbox');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // RFC 8187: every byte outside attr-char percent-encoded (encodeURIComponent leaves ' ( ) * ! as they are)
    const name = encodeURIComponent(stored.filename).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    res.setHeader('Content-Disposition', `attachment; filename*=UTF-8''${name}`);
    await sendAttachmentBytes(res, stored);
  }

  @Post('sign-out')
  @HttpCode(303)
  async signOut(@Req() req: OwnerPagesRequest, @Res() res: Response): Promise<void> {
    const session = await this.connectionsSession(req);
    if (!session || !this.http.validPost(req)) return this.http.forbidden(res);
    await this.consent.signOut(session);
    this.http.clearSession(res);
    this.http.seeOther(res, HOME);
  }

  private async connectionsSession(req: OwnerPagesRequest): Promise<ConsentSession | null> {
    const session = await this.consent.loadSession(this.http.sessionCookieValue(req));
    // CONTRACT §21 "one sign-in": an owner signed in on a consent is signed in here too
    req.webSession = session && (session.purpose === 'connections' || session.userId !== null) ? session : null;
    return req.webSession;
  }

  private signInPage(req: OwnerPagesRequest, res: Response, status: number, email: string, error: string | null): void {
    const csrf = this.http.csrfToken(req, res);
    this.http.page(res, status, 'sign-in', { titleKey: 'consent.signInTitle', appName: '', email, error, csrf, action: `${HOME}/sign-in` });
  }
}
