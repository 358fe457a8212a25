import { definePage, renderPage as renderLayoutPage } from '../../../../shared/web';
import './messages';

/**
 * The consent flow's pages (CONTRACT §11, §18; Connected apps are src/modules/owner-pages) in the shared layout (src/shared/web/page-layout.ts, which
 * escapes every `<%= %>` value, holds the one stylesheet, the language switch, the message and the
 * confirmation pages). Every text comes from the consent catalogue (views/messages.ts) through `it.t`.
 */
definePage(
  'consent-sign-in',
  `<%~ include('@head', { ...it, narrow: true }) %><h1><%= it.t('consent.signInTitle') %></h1>
<% if (it.appName) { %><p><%= it.t('consent.signInAsks', { app: it.appName }) %></p><% } else { %><p><%= it.t('consent.signInConnections') %></p><% } %>
<%~ include('@form-error', it) %><form method="post" action="<%= it.action %>">
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<%~ include('@sign-in-fields', it) %><div><button type="submit"><%= it.t('web.signIn') %></button></div>
</form>
<%~ include('@foot', it) %>`,
);

definePage(
  'consent-organization',
  `<%~ include('@head', { ...it, narrow: true }) %><h1><%= it.t('consent.chooseTitle') %></h1>
<p><%= it.t('consent.chooseText', { app: it.appName }) %></p>
<form method="post" action="/oauth/authorize/organization">
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<input type="hidden" name="request" value="<%= it.requestTag %>">
<label for="organization"><%= it.t('consent.organization') %></label>
<select id="organization" name="organization_id">
<% it.organizations.forEach(function (o) { %><option value="<%= o.id %>"><%= o.name %></option>
<% }) %></select>
<div><button type="submit"><%= it.t('consent.continue') %></button></div>
</form>
<%~ include('@foot', it) %>`,
);

/**
 * The consent form (CONTRACT §18): who is asking (service, app, the approved revision's publisher with its CVR number and whether the operator verified it (§21), website, privacy policy,
 * the redirect URI's host, the signed-in owner, the organization and its CVR number when known), the
 * scopes in words only, the accounts by number, each duration option with its own end date (CONTRACT
 * §21: no other text names an end date a choice could contradict — the page runs no script), the
 * mandate's meaning, the way to withdraw later. Pressing Enter never grants: the form's first submit
 * button — its default button, which implicit submission (Enter in a field or on a checkbox) presses —
 * is a hidden, harmless `decision=review`, which shows the form again as it was (422, nothing granted).
 * (A disabled default button does not do: Chromium then presses the next one, Allow access.) Only the
 * **Allow access** button itself grants, and the server grants only for `decision=allow`.
 */
definePage(
  'consent-consent',
  `<%~ include('@head', { ...it, narrow: true }) %><h1><%= it.t('consent.consentTitle', { app: it.view.appName }) %></h1>
<section class="card" aria-labelledby="h-who"><h2 id="h-who"><%= it.t('consent.whoIsAsking') %></h2>
<dl class="facts">
<dt><%= it.t('consent.service') %></dt><dd><%= it.serviceName %></dd>
<dt><%= it.t('consent.app') %></dt><dd><strong><%= it.view.appName %></strong></dd>
<dt><%= it.t('consent.publisher') %></dt><dd id="publisher"><%= it.view.publisher.name || it.t('consent.notGiven') %><% if (it.view.publisher.cvr) { %> (<%= it.t('consent.cvr', { cvr: it.view.publisher.cvr }) %>)<% } %>
<% if (!it.view.publisher.name) { } else if (it.view.publisherVerified) { %><span class="badge ok" id="publisher-verification"><%= it.t('consent.publisherVerified', { service: it.serviceName }) %></span><% } else { %><strong class="badge bad" id="publisher-verification"><%= it.t('consent.publisherNotVerified', { service: it.serviceName }) %></strong><% } %></dd>
<dt><%= it.t('consent.website') %></dt><dd><% if (it.view.publisher.website) { %><a href="<%= it.view.publisher.website %>" rel="noopener noreferrer"><%= it.view.publisher.website %></a><% } else { %><%= it.t('consent.notGiven') %><% } %></dd>
<dt><%= it.t('consent.privacyPolicy') %></dt><dd><% if (it.view.publisher.privacyPolicy) { %><a href="<%= it.view.publisher.privacyPolicy %>" rel="noopener noreferrer"><%= it.view.publisher.privacyPolicy %></a><% } else { %><%= it.t('consent.notGiven') %><% } %></dd>
<dt><%= it.t('consent.returnsTo') %></dt><dd><code id="redirect-host"><%= it.view.redirectHost %></code></dd>
<dt><%= it.t('consent.signedInAs') %></dt><dd id="signed-in-email"><%= it.view.email %></dd>
<dt><%= it.t('consent.organization') %></dt><dd id="organization-name"><%= it.view.organizationName %><% if (it.view.cvr) { %> (<%= it.t('consent.cvr', { cvr: it.view.cvr }) %>)<% } %></dd>
</dl>
</section>
<%~ include('@form-error', it) %><h2><%= it.t('consent.willBeAbleTo') %></h2>
<ul class="scopes">
<% it.view.scopes.forEach(function (s) { %><li><strong><%= it.t('consent.scope.' + s + '.title') %></strong>: <%= it.t('consent.scope.' + s + '.text') %></li>
<% }) %></ul>
<form method="post" action="/oauth/authorize/decision">
<button type="submit" name="decision" value="review" hidden tabindex="-1" aria-hidden="true"><%= it.t('consent.continue') %></button>
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<input type="hidden" name="request" value="<%= it.requestTag %>">
<fieldset aria-describedby="accounts-help<% if (it.error) { %> form-error<% } %>">
<legend><%= it.t('consent.accountsLegend') %></legend>
<p class="hint" id="accounts-help"><%= it.t('consent.accountsHelp') %></p>
<% it.view.accounts.forEach(function (a, i) { %><div class="check"><input type="checkbox" id="account-<%= i %>" name="account_ids" value="<%= a.id %>"<% if (it.checked.includes(a.id)) { %> checked<% } %>><label for="account-<%= i %>"><%= a.number %> <%= a.name %></label></div>
<% }) %></fieldset>
<label for="duration"><%= it.t('consent.duration') %></label>
<select id="duration" name="duration_days" aria-describedby="duration-help">
<% it.view.durations.forEach(function (d) { %><option value="<%= d.days %>"<% if (d.days === it.durationDays) { %> selected<% } %>><%= it.t('consent.durationOption', { days: d.days, date: it.fmt.date(d.until) }) %></option>
<% }) %></select>
<p class="hint" id="duration-help"><%= it.t('consent.durationHelp') %></p>
<% if (it.view.mandateOffered) { %><div class="check"><input type="checkbox" id="mandate" name="mandate" value="yes" aria-describedby="mandate-help"<% if (it.mandate) { %> checked<% } %>><label for="mandate"><%= it.t('consent.mandate') %></label></div>
<p class="hint" id="mandate-help"><%= it.t('consent.mandateHelp') %></p><% } %>
<p class="hint"><%= it.t('consent.enterNote') %></p>
<div class="actions"><button type="submit" name="decision" value="allow"><%= it.t('consent.allow') %></button><button type="submit" name="decision" value="deny" class="quiet"><%= it.t('consent.deny') %></button></div>
</form>
<p><%= it.t('consent.withdrawLater') %> <a href="/account/connections"><%= it.t('consent.connectedApps') %></a>.</p>
<%~ include('@foot', it) %>`,
);

export type ConsentPage = 'sign-in' | 'organization' | 'consent' | 'message' | 'confirm';

export function renderPage(name: ConsentPage, data: Record<string, unknown>): string {
  // the consent pages' names in the shared layout are prefixed, so other modules' pages never collide
  return renderLayoutPage(name === 'message' || name === 'confirm' ? name : `consent-${name}`, data);
}
