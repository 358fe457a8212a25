import { definePage, renderPage as renderLayoutPage } from '../../../shared/web';
import { renderConsentPage } from '../../auth/consent';

/**
 * Connected apps in detail (CONTRACT §18): per organization, each app with a grant in force — scopes
 * in words, accounts, granted, expires, mandate, last activity, then what an owner acts on (CONTRACT
 * §21): **Download CSV** and **Revoke** (which asks first), and only then **Activity** (the entries it
 * posted, ACTIVITY_PAGE a page, newest first, with **Older**).
 */
definePage(
  'owner-pages-connections',
  `<%~ include('@head', { ...it, signOutAction: '/account/connections/sign-out' }) %><h1><%= it.t('consent.connectionsTitle') %></h1>
<%~ include('@flash', it) %>
<p><%= it.t('consent.connectionsIntro') %></p>
<% if (it.organizations.length === 0) { %><p><%= it.t('consent.noConnections') %></p><% } %>
<% it.organizations.forEach(function (o) { %><section aria-labelledby="org-<%= o.id %>">
<h2 id="org-<%= o.id %>"><%= o.name %></h2>
<% o.apps.forEach(function (a) { %><article class="card" id="grant-<%= a.grantId %>" aria-labelledby="app-<%= a.grantId %>">
<h3 id="app-<%= a.grantId %>"><%= a.appName %></h3>
<dl class="facts">
<dt><%= it.t('consent.scopes') %></dt><dd><ul class="scopes"><% a.scopes.forEach(function (s) { %><li><%= it.t('consent.scope.' + s + '.title') %></li><% }) %></ul></dd>
<dt><%= it.t('consent.accounts') %></dt><dd><%= a.accounts.map(function (x) { return x.number + ' ' + x.name; }).join(', ') %></dd>
<dt><%= it.t('consent.granted') %></dt><dd><time datetime="<%= a.grantedAt.toISOString() %>"><%= it.fmt.date(a.grantedAt) %></time></dd>
<dt><%= it.t('consent.expires') %></dt><dd><time datetime="<%= a.expiresAt.toISOString() %>"><%= it.fmt.date(a.expiresAt) %></time></dd>
<dt><%= it.t('consent.mandateHeld') %></dt><dd><%= it.t(a.mandate ? 'consent.yes' : 'consent.no') %></dd>
<dt><%= it.t('consent.lastCall') %></dt><dd><% if (a.lastCallAt) { %><time datetime="<%= a.lastCallAt.toISOString() %>"><%= it.fmt.dateTime(a.lastCallAt) %></time><% } else { %><%= it.t('consent.never') %><% } %></dd>
</dl>
<div class="actions">
<a class="button quiet" href="/account/connections/activity.csv?grant_id=<%= a.grantId %>&amp;lang=<%= it.lang %>" aria-label="<%= it.t('consent.downloadCsvLabel', { app: a.appName, organization: o.name }) %>" download><%= it.t('consent.downloadCsv') %></a>
<form method="get" action="/account/connections/revoke"><input type="hidden" name="grant_id" value="<%= a.grantId %>"><button type="submit" class="danger" aria-label="<%= it.t('consent.revokeLabel', { app: a.appName, organization: o.name }) %>"><%= it.t('consent.revoke') %></button></form>
</div>
<h4><%= it.t('consent.activity') %></h4>
<% if (a.activity.entries.length === 0) { %><p><%= it.t('consent.noActivity') %></p><% } else { %>
<div class="table"><table class="stack"><caption class="hint"><%= it.t('consent.activityCaption', { app: a.appName, organization: o.name }) %></caption>
<thead><tr><th scope="col"><%= it.t('consent.voucher') %></th><th scope="col"><%= it.t('consent.postingDate') %></th><th scope="col"><%= it.t('consent.description') %></th><th scope="col" class="num"><%= it.t('consent.totalDebit') %></th><th scope="col" class="num"><%= it.t('consent.attachments') %></th></tr></thead><tbody>
<% a.activity.entries.forEach(function (e) { %><tr><td data-label="<%= it.t('consent.voucher') %>"><%= e.voucherYear %>-<%= e.voucherNumber %></td><td data-label="<%= it.t('consent.postingDate') %>"><%= it.fmt.date(e.postingDate) %></td><td data-label="<%= it.t('consent.description') %>"><%= e.description || '–' %><% if (e.reverses) { %> <span class="hint">(<%= it.t('consent.reversalOf', { voucher: e.reverses.voucherYear + '-' + e.reverses.voucherNumber }) %>)</span><% } %></td><td data-label="<%= it.t('consent.totalDebit') %>" class="num"><%= it.fmt.amount(e.totalDebitMinor) %></td><td data-label="<%= it.t('consent.attachments') %>" class="num"><%= e.attachments %><% if (e.files.length) { %><ul class="files"><% e.files.forEach(function (f) { %><li><a href="/account/connections/attachment?grant_id=<%= a.grantId %>&amp;entry_id=<%= e.id %>&amp;attachment_id=<%= f.id %>" download><%= f.filename %></a></li><% }) %></ul><% } %></td></tr>
<% }) %></tbody></table></div>
<% if (a.activity.olderHref) { %><p><a href="<%= a.activity.olderHref %>"><%= it.t('consent.older') %></a></p><% } %><% } %>
<% if (a.activity.newestHref) { %><p><a href="<%= a.activity.newestHref %>"><%= it.t('consent.newer') %></a></p><% } %>
</article>
<% }) %></section>
<% }) %>
<%~ include('@foot', it) %>`,
);

export type OwnerPage = 'sign-in' | 'connections' | 'message' | 'confirm';

/**
 * Connected apps is this module's page (its words are the consent catalogue's, `consent.*`); its sign-in
 * form, message and confirmation pages are the consent flow's, the one sign-in of CONTRACT §21.
 */
export function renderPage(name: OwnerPage, data: Record<string, unknown>): string {
  return name === 'connections' ? renderLayoutPage('owner-pages-connections', data) : renderConsentPage(name, data);
}
