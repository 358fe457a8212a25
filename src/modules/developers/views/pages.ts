import { definePage, renderPage as renderLayoutPage } from '../../../shared/web';
import './messages';

/**
 * The developer console's pages (CONTRACT §15, §18) in the shared layout: the one stylesheet, the
 * language switch, the message and confirmation pages of src/shared/web. Every text comes from the
 * developers catalogue (views/messages.ts) through `it.t`; every `<%= %>` is escaped. A status
 * message or a secret shown once (`it.flash`) appears in the section it concerns (`it.flash.section`),
 * which the 303 that led here names as its fragment.
 */
/** A refused field's reason (CONTRACT §21: an alert that takes focus — the first on the page, when several). */
const FIELD_ERROR = (field: string) =>
  `<% if (it.errors && it.errors.${field}) { %><p class="error" role="alert" tabindex="-1" autofocus id="${field}-error"><%= it.t(it.errors.${field}.key, it.errors.${field}.params) %></p><% } %>`;
const DESCRIBED = (field: string, extra = '') =>
  `<% if (it.errors && it.errors.${field}) { %> aria-invalid="true" aria-describedby="${field}-error${extra}"<% } else { %>${extra ? ` aria-describedby="${extra.trim()}"` : ''}<% } %>`;
/** The flash of one section: its status message and the secret issued there, once. */
const FLASH = (section: string) => `<% if (it.flash && it.flash.section === '${section}') { %><%~ include('@flash', it) %><% } %>`;
const T = (key: string) => `<%= it.t('developers.${key}') %>`;

definePage(
  'developer-signup',
  `<%~ include('@head', { ...it, narrow: true }) %><h1>${T('signupTitle')}</h1>
<p>${T('signupIntro')}</p>
<p class="hint"><%= it.t(it.emailHint) %></p>
<form method="post" action="/developers/signup" novalidate>
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<label for="email"><%= it.t('web.email') %></label>
<input id="email" name="email" type="email" autocomplete="username" required value="<%= it.email %>"${DESCRIBED('email')}>
${FIELD_ERROR('email')}
<button type="submit">${T('createAccount')}</button>
</form>
<p>${T('haveAccount')} <a href="/developers/signin"><%= it.t('web.signIn') %></a></p>
<%~ include('@foot', it) %>`,
);

definePage(
  'developer-enrol',
  `<%~ include('@head', { ...it, narrow: true }) %><h1>${T('enrolTitle')}</h1>
<p>${T('enrolIntro')}</p>
<form method="post" action="/developers/signup/confirm" novalidate>
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<label for="password"><%= it.t('web.password') %></label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="12" maxlength="128"${DESCRIBED('password', ' password-help')}>
<p class="hint" id="password-help">${T('passwordHelp')}</p>
${FIELD_ERROR('password')}
<section class="card" aria-labelledby="h-secret">
<h2 id="h-secret">${T('secret')}</h2>
<% if (it.qrSvg) { %><div class="qr" role="img" aria-label="${T('qrCode')}"><%~ it.qrSvg %></div><% } %>
<p><code id="totp-secret"><%= it.secretGroups %></code></p>
<p class="hint">${T('orOpen')} <a href="<%= it.uri %>"><code id="totp-uri"><%= it.uri %></code></a></p>
</section>
<label for="code"><%= it.t('web.authenticatorCode') %></label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="9" required${DESCRIBED('code')}>
${FIELD_ERROR('code')}
<button type="submit">${T('confirmSignup')}</button>
</form>
<%~ include('@foot', it) %>`,
);

definePage(
  'developer-signin',
  `<%~ include('@head', { ...it, narrow: true }) %><h1><%= it.t('web.signIn') %></h1>
<% if (it.notice) { %><p class="status" role="status"><%= it.t(it.notice) %></p><% } %>
<%~ include('@form-error', it) %><form method="post" action="/developers/signin" novalidate>
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<%~ include('@sign-in-fields', it) %><button type="submit"><%= it.t('web.signIn') %></button>
</form>
<% if (it.signupOpen) { %><p>${T('newHere')} <a href="/developers/signup">${T('createAnAccount')}</a></p><% } %>
<%~ include('@foot', it) %>`,
);

definePage(
  'developer-apps',
  `<%~ include('@head', it) %><h1>${T('appsTitle')}</h1>
<% if (it.apps.length === 0) { %><p>${T('noApps')}</p><% } %>
<ul class="apps">
<% it.apps.forEach(function (a) { %><li><a href="/developers/apps/<%= a.id %>"><%= a.name %></a></li>
<% }) %></ul>
<form method="get" action="/developers/apps/new"><button type="submit">${T('newApp')}</button></form>
<%~ include('@foot', it) %>`,
);

definePage(
  'developer-new-app',
  `<%~ include('@head', { ...it, narrow: true }) %><h1>${T('newApp')}</h1>
<form method="post" action="/developers/apps" novalidate>
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<label for="name">${T('appName')}</label>
<input id="name" name="name" type="text" required maxlength="200" value="<%= it.name %>"${DESCRIBED('name')}>
${FIELD_ERROR('name')}
<button type="submit">${T('createApp')}</button>
</form>
<p><a href="/developers/apps">${T('backToApps')}</a></p>
<%~ include('@foot', it) %>`,
);

const CSRF = `<input type="hidden" name="_csrf" value="<%= it.csrf %>">`;

definePage(
  'developer-app',
  `<%~ include('@head', it) %><p><a href="/developers/apps">${T('appsTitle')}</a></p>
<h1><%= it.view.name %></h1>
<nav class="sections" aria-label="${T('sections')}"><a href="#base-addresses">${T('baseAddresses')}</a><a href="#sandbox">${T('sandbox')}</a><a href="#oauth">${T('oauth')}</a><a href="#demo-company">${T('demoCompany')}</a><a href="#publisher">${T('publisher')}</a><a href="#webhooks">${T('webhooks')}</a><a href="#revisions">${T('revisions')}</a><a href="#sandbox-entries">${T('sandboxEntries')}</a><a href="#request-log">${T('requestLog')}</a></nav>

<section class="card" id="base-addresses" aria-labelledby="h-base"><h2 id="h-base">${T('baseAddresses')}</h2>
<table><tbody>
<tr><th scope="row">${T('sandbox')}</th><td><code id="sandbox-base"><%= it.view.baseUrls.sandbox %></code></td></tr>
<tr><th scope="row">${T('production')}</th><td><code id="production-base"><%= it.view.baseUrls.production %></code></td></tr>
</tbody></table></section>

<section class="card" id="sandbox" aria-labelledby="h-sandbox"><h2 id="h-sandbox">${T('sandbox')}</h2>
${FLASH('sandbox')}<p class="hint"><%= it.t('developers.projectHint', { id: it.view.sandbox.projectId }) %></p>
<table><tbody>
<tr><th scope="row">${T('attachmentStorage')}</th><td id="sandbox-storage"><%= it.view.sandbox.storage.max === 0 ? it.t('developers.storageUseNoLimit', { used: it.fmt.number(it.view.sandbox.storage.used) }) : it.t('developers.storageUse', { used: it.fmt.number(it.view.sandbox.storage.used), max: it.fmt.number(it.view.sandbox.storage.max) }) %></td></tr>
</tbody></table>
<div class="table"><table class="stack"><thead><tr><th>${T('number')}</th><th>${T('name')}</th><th>${T('accountId')}</th></tr></thead><tbody>
<% it.view.sandbox.accounts.forEach(function (a) { %><tr><td data-label="${T('number')}"><%= a.number %></td><td data-label="${T('name')}"><%= a.name %></td><td data-label="${T('accountId')}"><code><%= a.id %></code></td></tr>
<% }) %></tbody></table></div>
${FIELD_ERROR('sandbox')}
<form method="get" action="/developers/apps/<%= it.view.id %>/sandbox-token"><button type="submit"<% if (it.errors && it.errors.sandbox) { %> aria-describedby="sandbox-error"<% } %>>${T('newSandboxToken')}</button></form>
<p class="hint">${T('newTokenHint')} <%= it.t('developers.sandboxTokensHint', { max: it.quotas.sandboxTokensPerHour }) %></p>
</section>

<section class="card" id="oauth" aria-labelledby="h-oauth"><h2 id="h-oauth">${T('oauth')}</h2>
${FLASH('oauth')}<p>${T('clientId')}: <code id="client-id"><%= it.view.id %></code></p>
<form method="post" action="/developers/apps/<%= it.view.id %>/redirect-uris" novalidate>${CSRF}
<label for="redirect_uris">${T('redirectUris')}</label>
<textarea id="redirect_uris" name="redirect_uris" rows="3"${DESCRIBED('redirect_uris', ' redirect-help')}><%= it.redirectText %></textarea>
<p class="hint" id="redirect-help">${T('redirectHelp')}</p>
${FIELD_ERROR('redirect_uris')}
<button type="submit">${T('saveRedirectUris')}</button>
</form>
<form method="get" action="/developers/apps/<%= it.view.id %>/client-secret"><button type="submit" class="quiet">${T('newClientSecret')}</button></form>
</section>

<% if (it.view.demo) { %><section class="card" id="demo-company" aria-labelledby="h-demo"><h2 id="h-demo">${T('demoCompany')}</h2>
<p class="hint">${T('demoHint')}</p>
<table><tbody>
<tr><th scope="row">${T('name')}</th><td><%= it.view.demo.name %></td></tr>
<tr><th scope="row">${T('demoCompanyId')}</th><td><code id="demo-company-id"><%= it.view.demo.id %></code></td></tr>
<tr><th scope="row">${T('attachmentStorage')}</th><td id="demo-storage"><%= it.view.demo.storage.max === 0 ? it.t('developers.storageUseNoLimit', { used: it.fmt.number(it.view.demo.storage.used) }) : it.t('developers.storageUse', { used: it.fmt.number(it.view.demo.storage.used), max: it.fmt.number(it.view.demo.storage.max) }) %></td></tr>
</tbody></table>
<% if (it.view.demo.connect) { %><p><a class="button" id="connect-demo" href="<%= it.view.demo.connect.href %>">${T('connectDemo')}</a></p>
<p class="hint"><%= it.t('developers.connectDemoHint', { uri: it.view.demo.connect.redirectUri }) %> <code id="demo-code-verifier"><%= it.view.demo.connect.codeVerifier %></code></p>
<% } else { %><p class="hint">${T('connectDemoNeedsRedirect')}</p><% } %>
</section><% } %>

<section class="card" id="publisher" aria-labelledby="h-publisher"><h2 id="h-publisher">${T('publisher')}</h2>
${FLASH('publisher')}<p class="hint">${T('publisherHint')}</p>
<p id="publisher-shown"><% if (it.view.approvedPublisher) { %><%= it.t('developers.publisherShown', { name: it.view.approvedPublisher.name || it.t('developers.publisherNotGiven') }) %> <% if (!it.view.approvedPublisher.name) { } else if (it.view.publisherVerified) { %><span class="badge ok">${T('publisherVerified')}</span><% } else { %><span class="badge bad"><%= it.t('developers.publisherNotVerified', { service: it.serviceName }) %></span><% } %><% } else { %>${T('publisherNotShownYet')}<% } %></p>
<form method="post" action="/developers/apps/<%= it.view.id %>/publisher" novalidate>${CSRF}
<label for="publisher_name">${T('publisherName')}</label>
<input id="publisher_name" name="publisher_name" type="text" maxlength="200" autocomplete="organization" value="<%= it.publisher.name %>"${DESCRIBED('publisher_name')}>
${FIELD_ERROR('publisher_name')}
<label for="website">${T('website')}</label>
<input id="website" name="website" type="url" maxlength="2000" autocomplete="url" value="<%= it.publisher.website %>"${DESCRIBED('website', ' website-help')}>
<p class="hint" id="website-help">${T('httpsHelp')}</p>
${FIELD_ERROR('website')}
<label for="privacy_policy">${T('privacyPolicy')}</label>
<input id="privacy_policy" name="privacy_policy" type="url" maxlength="2000" value="<%= it.publisher.privacyPolicy %>"${DESCRIBED('privacy_policy', ' privacy-help')}>
<p class="hint" id="privacy-help">${T('httpsHelp')}</p>
${FIELD_ERROR('privacy_policy')}
<label for="cvr">${T('cvr')}</label>
<input id="cvr" name="cvr" type="text" inputmode="numeric" maxlength="8" value="<%= it.publisher.cvr %>"${DESCRIBED('cvr', ' cvr-help')}>
<p class="hint" id="cvr-help">${T('cvrHelp')}</p>
${FIELD_ERROR('cvr')}
<button type="submit">${T('savePublisher')}</button>
</form>
</section>

<section class="card" id="webhooks" aria-labelledby="h-webhooks"><h2 id="h-webhooks">${T('webhooks')}</h2>
${FLASH('webhooks')}${FIELD_ERROR('resends')}${FIELD_ERROR('rotations')}<% if (it.view.endpoints.length === 0) { %><p>${T('noEndpoints')}</p><% } %>
<% it.view.endpoints.forEach(function (e) { %><div class="endpoint" id="endpoint-<%= e.id %>">
<h3><code><%= e.url %></code> · <%= it.t('developers.' + e.environment) %> · <% if (e.disabled) { %><span class="badge bad">${T('disabled')}</span><% } else { %><span class="badge ok">${T('active')}</span><% } %></h3>
<p class="hint">${T('endpointIdLabel')} <code><%= e.id %></code></p>
<% if (e.disabled) { %><p class="alert">${T('disabledAlert')}</p>
<form method="post" action="/developers/apps/<%= it.view.id %>/webhook-endpoints/enable">${CSRF}<input type="hidden" name="endpoint_id" value="<%= e.id %>"><button type="submit" aria-label="<%= it.t('developers.enableLabel', { url: e.url, environment: it.t('developers.' + e.environment) }) %>">${T('enable')}</button></form><% } %>
<div class="tools">
<form method="post" action="/developers/apps/<%= it.view.id %>/webhook-endpoints/test">${CSRF}<input type="hidden" name="endpoint_id" value="<%= e.id %>"><button type="submit" class="quiet small" aria-label="<%= it.t('developers.sendTestLabel', { url: e.url, environment: it.t('developers.' + e.environment) }) %>">${T('sendTestEvent')}</button></form>
<form method="get" action="/developers/apps/<%= it.view.id %>/webhook-endpoints/rotate-secret"><input type="hidden" name="endpoint_id" value="<%= e.id %>"><button type="submit" class="quiet small" aria-label="<%= it.t('developers.rotateLabel', { url: e.url, environment: it.t('developers.' + e.environment) }) %>">${T('rotateSecret')}</button></form>
<form method="get" action="/developers/apps/<%= it.view.id %>/webhook-endpoints/delete"><input type="hidden" name="endpoint_id" value="<%= e.id %>"><button type="submit" class="quiet small" aria-label="<%= it.t('developers.deleteLabel', { url: e.url, environment: it.t('developers.' + e.environment) }) %>">${T('delete')}</button></form>
</div>
<form method="get" action="/developers/apps/<%= it.view.id %>/webhook-endpoints/recover" class="recover" novalidate><input type="hidden" name="endpoint_id" value="<%= e.id %>">
<label for="since-<%= e.id %>">${T('since')}</label>
<input id="since-<%= e.id %>" name="since" type="text" required maxlength="64" value="<%= it.recover && it.recover.endpointId === e.id ? it.recover.since : '' %>" aria-describedby="since-help-<%= e.id %><% if (it.recover && it.recover.endpointId === e.id && it.errors.since) { %> since-error-<%= e.id %><% } %>"<% if (it.recover && it.recover.endpointId === e.id && it.errors.since) { %> aria-invalid="true"<% } %>>
<p class="hint" id="since-help-<%= e.id %>"><%= it.t('developers.sinceHelp', { days: it.view.webhookRetentionDays }) %></p>
<% if (it.recover && it.recover.endpointId === e.id && it.errors.since) { %><p class="error" id="since-error-<%= e.id %>"><%= it.t(it.errors.since.key, it.errors.since.params) %></p><% } %>
<button type="submit" class="quiet small" aria-label="<%= it.t('developers.recoverLabel', { url: e.url, environment: it.t('developers.' + e.environment) }) %>">${T('recover')}</button>
</form>
</div>
<% }) %>
<h3>${T('addEndpoint')}</h3>
<form method="post" action="/developers/apps/<%= it.view.id %>/webhook-endpoints" novalidate>${CSRF}
<label for="url">${T('url')}</label>
<input id="url" name="url" type="url" required maxlength="2000" value="<%= it.endpointUrl %>"${DESCRIBED('url')}>
${FIELD_ERROR('url')}
<label for="environment">${T('environment')}</label>
<select id="environment" name="environment"${DESCRIBED('environment')}>
<% ['sandbox', 'production'].forEach(function (e) { %><option value="<%= e %>"<% if (e === it.endpointEnvironment) { %> selected<% } %>><%= it.t('developers.' + e) %></option><% }) %>
</select>
${FIELD_ERROR('environment')}
<button type="submit">${T('addEndpoint')}</button>
</form>
<h3>${T('latestDeliveries')}</h3>
<% if (it.view.deliveries.length === 0) { %><p>${T('noDeliveries')}</p><% } else { %>
<div class="table"><table class="stack"><thead><tr><th>${T('event')}</th><th>${T('operation')}</th><th>${T('environment')}</th><th>${T('status')}</th><th>${T('attempts')}</th><th>${T('lastCode')}</th><th>${T('nextAttempt')}</th><th><span class="hint">${T('action')}</span></th></tr></thead><tbody>
<% it.view.deliveries.forEach(function (d) { %><tr><td data-label="${T('event')}"><code><%= d.event_id %></code><% if (d.eventType !== 'operation.completed') { %> <span class="badge"><%= d.eventType %></span><% } %></td><td data-label="${T('operation')}"><% if (d.operation_id) { %><code><%= d.operation_id %></code><% } else { %>–<% } %></td><td data-label="${T('environment')}"><%= it.t('developers.' + d.environment) %></td><td data-label="${T('status')}"><%= d.status %></td>
<td data-label="${T('attempts')}"><%= d.attempts %><% if (d.attemptLog.length > 0) { %><details><summary><%= it.t('developers.attemptsOf', { event: d.event_id.slice(0, 8) }) %></summary><ol class="attempts">
<% d.attemptLog.forEach(function (a) { %><li><time datetime="<%= a.at.toISOString() %>"><%= a.at.toISOString().slice(0, 19).replace('T', ' ') %> UTC</time> — <%= a.statusCode === null ? '' : a.statusCode + ' ' %><%= a.failure === null ? it.t('developers.deliveredWord') : a.failure %>, <%= a.durationMs %> ms</li>
<% }) %></ol></details><% } %></td>
<td data-label="${T('lastCode')}"><%= d.last_status_code === null ? '–' : d.last_status_code %></td>
<td data-label="${T('nextAttempt')}"><% if (d.nextAttemptAt) { %><time datetime="<%= d.nextAttemptAt.toISOString() %>"><%= d.nextAttemptAt.toISOString().slice(0, 19).replace('T', ' ') %> UTC</time><% if (d.endpointDisabled) { %> <span class="badge bad">${T('endpointDisabled')}</span><% } %><% } else { %>–<% } %></td>
<td data-label=""><form method="post" action="/developers/apps/<%= it.view.id %>/deliveries/resend">${CSRF}<input type="hidden" name="event_id" value="<%= d.event_id %>"><input type="hidden" name="endpoint_id" value="<%= d.endpoint_id %>"><button type="submit" class="quiet small" aria-label="<%= it.t('developers.resendLabel', { event: d.event_id }) %>">${T('resend')}</button></form></td></tr>
<% }) %></tbody></table></div><% } %>
</section>

<section class="card" id="revisions" aria-labelledby="h-revisions"><h2 id="h-revisions">${T('revisions')}</h2>
${FLASH('revisions')}<p class="hint">${T('revisionsHint')}</p>
<% if (it.view.revisions.length === 0) { %><p>${T('noRevisions')}</p><% } else { %>
<table><thead><tr><th>${T('number')}</th><th>${T('state')}</th></tr></thead><tbody>
<% it.view.revisions.forEach(function (r) { %><tr><td><%= r.number %></td><td><% if (r.approved) { %><span class="badge ok">${T('approved')}</span><% } else { %><span class="badge wait">${T('notApproved')}</span><% } %></td></tr>
<% }) %></tbody></table><% } %>
${FIELD_ERROR('revisions')}
<form method="get" action="/developers/apps/<%= it.view.id %>/revisions"><button type="submit"<% if (it.errors && it.errors.revisions) { %> aria-describedby="revisions-error"<% } %>>${T('submitForReview')}</button></form>
</section>

<section class="card" id="sandbox-entries" aria-labelledby="h-sandbox-entries"><h2 id="h-sandbox-entries">${T('sandboxEntries')}</h2>
<p class="hint"><%= it.t('developers.sandboxEntriesHint', { count: it.view.sandboxEntries.length }) %></p>
<% if (it.view.sandboxEntries.length === 0) { %><p>${T('noEntries')}</p><% } else { %>
<div class="table"><table class="stack"><thead><tr><th>${T('voucher')}</th><th>${T('postingDate')}</th><th>${T('entryDescription')}</th><th>${T('lines')}</th><th>${T('attachmentsColumn')}</th><th>${T('entryId')}</th></tr></thead><tbody>
<% it.view.sandboxEntries.forEach(function (e) { %><tr><td data-label="${T('voucher')}"><%= e.voucher_year %>-<%= e.voucher_number %></td><td data-label="${T('postingDate')}"><%= e.posting_date %></td><td data-label="${T('entryDescription')}"><%= e.description === null ? '' : e.description %><% if (e.reverses) { var reversed = it.view.sandboxEntries.find(function (x) { return x.id === e.reverses; }); %> <span class="hint">(<%= it.t('developers.reversalOf', { entry: reversed ? reversed.voucher_year + '-' + reversed.voucher_number : e.reverses }) %>)</span><% } %></td><td data-label="${T('lines')}"><%= e.lines.length %></td><td data-label="${T('attachmentsColumn')}"><% if (e.attachments.length === 0) { %>${T('noAttachments')}<% } else { %><ul><% e.attachments.forEach(function (a) { %><li><%= a.filename %> (<%= a.content_type %>, <%= it.t('developers.bytes', { size: a.size }) %>)</li><% }) %></ul><% } %></td><td data-label="${T('entryId')}"><code><%= e.id %></code></td></tr>
<% }) %></tbody></table></div>
<% } %>
</section>

<section class="card" id="request-log" aria-labelledby="h-request-log"><h2 id="h-request-log">${T('requestLog')}</h2>
<p class="hint"><%= it.t('developers.requestLogHint', { days: it.requestLogDays }) %></p>
<form method="get" action="/developers/apps/<%= it.view.id %>#request-log" class="filters">
<label for="log-environment">${T('environment')}</label>
<select id="log-environment" name="environment">
<% [['all', it.t('developers.all')], ['sandbox', it.t('developers.sandbox')], ['production', it.t('developers.production')]].forEach(function (o) { %><option value="<%= o[0] %>"<% if ((it.view.requestLog.filter.environment || 'all') === o[0]) { %> selected<% } %>><%= o[1] %></option><% }) %>
</select>
<label for="log-status">${T('status')}</label>
<select id="log-status" name="status">
<% [['all', it.t('developers.all')], ['2xx', '2xx'], ['4xx', '4xx'], ['5xx', '5xx']].forEach(function (o) { %><option value="<%= o[0] %>"<% if ((it.view.requestLog.filter.status || 'all') === o[0]) { %> selected<% } %>><%= o[1] %></option><% }) %>
</select>
<label for="log-path">${T('pathContains')}</label>
<input id="log-path" name="path" type="text" maxlength="200" value="<%= it.view.requestLog.filter.pathContains || '' %>">
<label for="log-request-id">${T('requestId')}</label>
<input id="log-request-id" name="request_id" type="text" maxlength="200" value="<%= it.view.requestLog.filter.requestId || '' %>">
<button type="submit">${T('filter')}</button>
</form>
<% if (it.view.requestLog.calls.length === 0) { %><p>${T('noCalls')}</p><% } else { %>
<div class="table"><table class="stack"><thead><tr><th>${T('time')}</th><th>${T('environment')}</th><th>${T('call')}</th><th>${T('status')}</th><th>${T('code')}</th><th>${T('pointers')}</th><th>${T('duration')}</th><th>${T('requestId')}</th><th>${T('client')}</th><th>${T('idempotencyKey')}</th></tr></thead><tbody>
<% it.view.requestLog.calls.forEach(function (c) { %><tr><td data-label="${T('time')}"><time datetime="<%= c.at.toISOString() %>"><%= c.at.toISOString().slice(0, 19).replace('T', ' ') %> UTC</time></td><td data-label="${T('environment')}"><%= it.t('developers.' + c.environment) %></td><td data-label="${T('call')}"><code><%= c.method %> <%= c.path %></code></td><td data-label="${T('status')}"><%= c.status %></td><td data-label="${T('code')}"><% if (c.code) { %><code><%= c.code %></code><% } else { %>–<% } %></td><td data-label="${T('pointers')}"><%= c.pointers.join(', ') %></td><td data-label="${T('duration')}"><%= c.durationMs %> ms</td><td data-label="${T('requestId')}"><code><%= c.requestId %></code></td><td data-label="${T('client')}"><%= c.clientAddress %></td><td data-label="${T('idempotencyKey')}"><% if (c.idempotencyKeyPrefix) { %><code><%= c.idempotencyKeyPrefix %>…</code><% } else { %>–<% } %></td></tr>
<% }) %></tbody></table></div><% } %>
<% if (it.view.requestLog.scanStoppedAfter) { %><p class="hint"><%= it.t('developers.logScanStopped', { count: it.view.requestLog.scanStoppedAfter.toLocaleString('en-US') }) %></p><% } %>
<% if (it.view.requestLog.older) { %><p><a href="<%= it.olderHref %>">${T('older')}</a></p><% } %>
</section>
<%~ include('@foot', it) %>`,
);

export type DeveloperPage = 'signup' | 'enrol' | 'signin' | 'apps' | 'new-app' | 'app' | 'message' | 'confirm';

export function renderPage(name: DeveloperPage, data: Record<string, unknown>): string {
  return renderLayoutPage(name === 'message' || name === 'confirm' ? name : `developer-${name}`, data);
}
