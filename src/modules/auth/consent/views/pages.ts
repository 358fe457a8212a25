import { definePage, renderPage as renderLayoutPage } from '../../../../shared/web/page-layout';

/**
 * The consent flow's pages (CONTRACT §11), in the shared layout (src/shared/web/page-layout.ts, which
 * escapes every `<%= %>` value and holds the message page).
 */
definePage(
  'consent-sign-in',
  `<%~ include('@head', it) %><h1>Sign in</h1>
<% if (it.appName) { %><p><strong><%= it.appName %></strong> asks for access to your organization's books. Sign in as the organization's owner to decide.</p><% } else { %><p>Sign in as an organization owner to see the apps connected to your organizations.</p><% } %>
<% if (it.error) { %><p class="error" role="alert" id="form-error"><%= it.error %></p><% } %>
<form method="post" action="<%= it.action %>">
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<%~ include('@sign-in-fields', it) %><div><button type="submit">Sign in</button></div>
</form>
<%~ include('@foot', it) %>`,
);

definePage(
  'consent-organization',
  `<%~ include('@head', it) %><h1>Choose an organization</h1>
<p><strong><%= it.appName %></strong> asks for access. You own several organizations: choose the one to give access to.</p>
<form method="post" action="/oauth/authorize/organization">
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<label for="organization">Organization</label>
<select id="organization" name="organization_id">
<% it.organizations.forEach(function (o) { %><option value="<%= o.id %>"><%= o.name %></option>
<% }) %></select>
<div><button type="submit">Continue</button></div>
</form>
<%~ include('@foot', it) %>`,
);

definePage(
  'consent-consent',
  `<%~ include('@head', it) %><h1><%= it.view.appName %> asks for access</h1>
<p>Organization: <strong><%= it.view.organizationName %></strong></p>
<% if (it.error) { %><p class="error" role="alert" id="form-error"><%= it.error %></p><% } %>
<h2>The app will be able to</h2>
<ul>
<% it.view.scopes.forEach(function (s) { %><li><strong><%= s.title %></strong> (<code><%= s.name %></code>): <%= s.text %></li>
<% }) %></ul>
<form method="post" action="/oauth/authorize/decision">
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<fieldset<% if (it.error) { %> aria-describedby="form-error"<% } %>>
<legend>Accounts the app may use</legend>
<% it.view.accounts.forEach(function (a, i) { %><div class="check"><input type="checkbox" id="account-<%= i %>" name="account_ids" value="<%= a.id %>"<% if (it.checked.includes(a.id)) { %> checked<% } %>><label for="account-<%= i %>"><%= a.number %> <%= a.name %></label></div>
<% }) %></fieldset>
<label for="duration">Duration</label>
<select id="duration" name="duration_days">
<% [90, 60, 30].forEach(function (d) { %><option value="<%= d %>"<% if (d === it.durationDays) { %> selected<% } %>><%= d %> days</option>
<% }) %></select>
<% if (it.view.mandateOffered) { %><div class="check" style="margin-top:1rem"><input type="checkbox" id="mandate" name="mandate" value="yes"<% if (it.mandate) { %> checked<% } %>><label for="mandate">Allow final posting (mandate)</label></div>
<p><small>Without this, the app can prepare journal entries but not post them to the books.</small></p><% } %>
<div><button type="submit" name="decision" value="allow">Allow access</button><button type="submit" name="decision" value="deny">Deny</button></div>
</form>
<%~ include('@foot', it) %>`,
);

definePage(
  'consent-connections',
  `<%~ include('@head', it) %><h1>Connected apps</h1>
<% if (it.organizations.length === 0) { %><p>No app has access to your organizations.</p><% } %>
<% it.organizations.forEach(function (o) { %><section>
<h2><%= o.name %></h2>
<% o.apps.forEach(function (a) { %><article>
<h3><%= a.appName %></h3>
<p>Scopes: <%= a.scopes.join(', ') %></p>
<p>Accounts: <%= a.accounts.map(function (x) { return x.number + ' ' + x.name; }).join(', ') %></p>
<p>Expires: <time datetime="<%= a.expiresAt.toISOString() %>"><%= a.expiresAt.toISOString().slice(0, 10) %></time></p>
<form method="post" action="/account/connections/revoke">
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<input type="hidden" name="grant_id" value="<%= a.grantId %>">
<button type="submit" aria-label="Revoke <%= a.appName %> for <%= o.name %>">Revoke</button>
</form>
</article>
<% }) %></section>
<% }) %>
<%~ include('@foot', it) %>`,
);

export type ConsentPage = 'sign-in' | 'organization' | 'consent' | 'connections' | 'message';

export function renderPage(name: ConsentPage, data: Record<string, unknown>): string {
  // the consent pages' names in the shared layout are prefixed, so other modules' pages never collide
  return renderLayoutPage(name === 'message' ? 'message' : `consent-${name}`, data);
}
