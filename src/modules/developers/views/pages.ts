import { definePage, renderPage as renderLayoutPage } from '../../../shared/web';

/**
 * The developer console's pages (CONTRACT §15) in the shared layout's engine (Eta, every `<%= %>`
 * escaped). One small stylesheet, inline under the pages' CSP (`style-src 'unsafe-inline'`, no script):
 * system fonts, a readable measure, visible focus, AA contrast, one column at 390 px.
 */
const STYLE = `
:root { --ink: #1a1d21; --muted: #4b5563; --line: #d5d9e0; --accent: #1d4ed8; --bg: #f6f7f9; --ok: #166534; --bad: #b00020; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--bg); }
header.top { background: #fff; border-bottom: 1px solid var(--line); }
header.top .bar { max-width: 64rem; margin: 0 auto; padding: .75rem 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; justify-content: space-between; }
header.top a.brand { font-weight: 700; color: var(--ink); text-decoration: none; }
header.top form { margin: 0; }
main { max-width: 64rem; margin: 0 auto; padding: 1rem; }
main.narrow { max-width: 28rem; }
h1 { font-size: 1.6rem; margin: 1rem 0; }
h2 { font-size: 1.2rem; margin: 0 0 .75rem; }
h3 { font-size: 1rem; margin: 1rem 0 .5rem; }
section.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; margin: 0 0 1rem; }
label { display: block; margin-top: .9rem; font-weight: 600; }
input[type=email], input[type=password], input[type=text], input[type=url], select, textarea { display: block; width: 100%; margin-top: .25rem; padding: .55rem .6rem; font: inherit; color: var(--ink); background: #fff; border: 1px solid #8a919c; border-radius: 6px; }
textarea { min-height: 6rem; font-family: ui-monospace, monospace; font-size: .9rem; }
button, a.button { display: inline-block; margin-top: 1rem; padding: .55rem 1rem; font: inherit; font-weight: 600; color: #fff; background: var(--accent); border: 1px solid var(--accent); border-radius: 6px; cursor: pointer; text-decoration: none; }
button.quiet { color: var(--accent); background: #fff; }
button.small { margin-top: 0; padding: .25rem .6rem; font-size: .9rem; }
:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.hint { display: block; color: var(--muted); font-size: .9rem; margin: .25rem 0 0; }
.error { color: var(--bad); font-weight: 600; margin: .35rem 0 0; }
.alert { border-left: 4px solid var(--bad); background: #fff5f5; padding: .5rem .75rem; }
.issued { border: 2px solid var(--ok); background: #f0fdf4; border-radius: 8px; padding: .75rem 1rem; margin: 0 0 1rem; }
.issued code { display: block; margin-top: .4rem; word-break: break-all; font-size: 1rem; background: #fff; }
code { font-family: ui-monospace, monospace; background: #eef0f3; padding: 0 .25rem; border-radius: 3px; word-break: break-all; }
.table { width: 100%; overflow-x: auto; }
table { width: 100%; border-collapse: collapse; font-size: .92rem; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
ul.apps { list-style: none; padding: 0; }
ul.apps li { background: #fff; border: 1px solid var(--line); border-radius: 8px; margin: 0 0 .5rem; }
ul.apps a { display: block; padding: .75rem 1rem; color: var(--accent); font-weight: 600; }
nav.sections { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: 0 0 1rem; }
nav.sections a { color: var(--accent); }
.badge { display: inline-block; white-space: nowrap; padding: 0 .45rem; border-radius: 999px; font-size: .8rem; font-weight: 600; border: 1px solid currentColor; }
.badge.ok { color: var(--ok); }
.badge.wait { color: #92400e; }
.badge.bad { color: var(--bad); }
.endpoint { border-top: 1px solid var(--line); padding: .5rem 0 .75rem; }
.endpoint h3 { margin: .5rem 0 .25rem; }
.tools { display: flex; flex-wrap: wrap; gap: .5rem; margin: .5rem 0; }
.tools form { margin: 0; }
form.recover { max-width: 28rem; }
ol.attempts { margin: .25rem 0 0; padding-left: 1.25rem; font-size: .85rem; }
table.stack td code { word-break: normal; overflow-wrap: anywhere; }
@media (max-width: 600px) {
  section.card { padding: .75rem; }
  main { padding: .75rem; }
  table.stack thead { display: none; }
  table.stack tr { display: block; padding: .5rem 0; border-bottom: 1px solid var(--line); }
  table.stack td { display: flex; gap: .75rem; border: 0; padding: .1rem 0; }
  table.stack td::before { content: attr(data-label); flex: 0 0 6.5rem; color: var(--muted); font-weight: 600; }
  table.stack td > form { margin: 0; }
}
`;

definePage(
  'developer-head',
  `<%~ include('@document-start', { ...it, titleSuffix: ' · Partner API developers' }) %><style>${STYLE}</style>
</head>
<body>
<header class="top"><div class="bar">
<a class="brand" href="/developers">Partner API · Developers</a>
<% if (it.signedIn) { %><form method="post" action="/developers/signout"><input type="hidden" name="_csrf" value="<%= it.csrf %>"><button type="submit" class="quiet small">Sign out</button></form><% } %>
</div></header>
<main<% if (it.narrow) { %> class="narrow"<% } %>>
`,
);

const FIELD_ERROR = (field: string) =>
  `<% if (it.errors && it.errors.${field}) { %><p class="error" id="${field}-error"><%= it.errors.${field} %></p><% } %>`;
const DESCRIBED = (field: string, extra = '') =>
  `<% if (it.errors && it.errors.${field}) { %> aria-invalid="true" aria-describedby="${field}-error${extra}"<% } else { %>${extra ? ` aria-describedby="${extra.trim()}"` : ''}<% } %>`;

definePage(
  'developer-signup',
  `<%~ include('@developer-head', it) %><h1>Create a developer account</h1>
<p>Build on the Partner API: a sandbox with sample books at once, production once your app is approved.</p>
<p class="hint">We email you a link to confirm the address; the account is made once you have followed it and set up your authenticator.</p>
<form method="post" action="/developers/signup" novalidate>
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="<%= it.email %>"${DESCRIBED('email')}>
${FIELD_ERROR('email')}
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="12" maxlength="128"${DESCRIBED('password', ' password-help')}>
<p class="hint" id="password-help">12 to 128 characters.</p>
${FIELD_ERROR('password')}
<button type="submit">Create account</button>
</form>
<p>Have an account? <a href="/developers/signin">Sign in</a></p>
<%~ include('@foot', it) %>`,
);

definePage(
  'developer-enrol',
  `<%~ include('@developer-head', it) %><h1>Set up your authenticator</h1>
<p>Add this secret to your authenticator app (any app for one-time codes), then enter the code it shows.</p>
<section class="card">
<h2>Secret</h2>
<p><code id="totp-secret"><%= it.secret %></code></p>
<p class="hint">Or open this address in the app: <code id="totp-uri"><%= it.uri %></code></p>
</section>
<form method="post" action="/developers/signup/confirm" novalidate>
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<label for="code">Authenticator code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required${DESCRIBED('code')}>
${FIELD_ERROR('code')}
<button type="submit">Confirm</button>
</form>
<%~ include('@foot', it) %>`,
);

definePage(
  'developer-signin',
  `<%~ include('@developer-head', it) %><h1>Sign in</h1>
<% if (it.notice) { %><p role="status"><%= it.notice %></p><% } %>
<% if (it.error) { %><p class="error alert" role="alert" id="form-error"><%= it.error %></p><% } %>
<form method="post" action="/developers/signin" novalidate>
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<%~ include('@sign-in-fields', it) %><button type="submit">Sign in</button>
</form>
<% if (it.signupOpen) { %><p>New here? <a href="/developers/signup">Create an account</a></p><% } %>
<%~ include('@foot', it) %>`,
);

definePage(
  'developer-apps',
  `<%~ include('@developer-head', it) %><h1>Your apps</h1>
<% if (it.apps.length === 0) { %><p>No apps yet. Make one: it comes with a sandbox of sample books to call at once.</p><% } %>
<ul class="apps">
<% it.apps.forEach(function (a) { %><li><a href="/developers/apps/<%= a.id %>"><%= a.name %></a></li>
<% }) %></ul>
<form method="get" action="/developers/apps/new"><button type="submit">New app</button></form>
<%~ include('@foot', it) %>`,
);

definePage(
  'developer-new-app',
  `<%~ include('@developer-head', it) %><h1>New app</h1>
<form method="post" action="/developers/apps" novalidate>
<input type="hidden" name="_csrf" value="<%= it.csrf %>">
<label for="name">App name</label>
<input id="name" name="name" type="text" required maxlength="200" value="<%= it.name %>"${DESCRIBED('name')}>
${FIELD_ERROR('name')}
<button type="submit">Create app</button>
</form>
<p><a href="/developers/apps">Back to your apps</a></p>
<%~ include('@foot', it) %>`,
);

const CSRF = `<input type="hidden" name="_csrf" value="<%= it.csrf %>">`;

definePage(
  'developer-app',
  `<%~ include('@developer-head', it) %><p><a href="/developers/apps">Your apps</a></p>
<h1><%= it.view.name %></h1>
<nav class="sections" aria-label="Sections"><a href="#base-addresses">Base addresses</a><a href="#sandbox">Sandbox</a><a href="#oauth">OAuth</a><a href="#webhooks">Webhooks</a><a href="#revisions">Revisions</a><a href="#sandbox-entries">Sandbox entries</a><a href="#request-log">Request log</a></nav>
<% if (it.issued) { %><div class="issued" role="status" id="issued"><strong><%= it.issued.label %></strong> — shown this once; copy it now.<code id="issued-value"><%= it.issued.value %></code></div><% } %>

<section class="card" id="base-addresses" aria-labelledby="h-base"><h2 id="h-base">Base addresses</h2>
<table><tbody>
<tr><th scope="row">Sandbox</th><td><code id="sandbox-base"><%= it.view.baseUrls.sandbox %></code></td></tr>
<tr><th scope="row">Production</th><td><code id="production-base"><%= it.view.baseUrls.production %></code></td></tr>
</tbody></table></section>

<section class="card" id="sandbox" aria-labelledby="h-sandbox"><h2 id="h-sandbox">Sandbox</h2>
<p class="hint">Project <code><%= it.view.sandbox.projectId %></code>: sample books of your own. Call the sandbox base address with a sandbox token.</p>
<div class="table"><table class="stack"><thead><tr><th>Number</th><th>Name</th><th>Account id</th></tr></thead><tbody>
<% it.view.sandbox.accounts.forEach(function (a) { %><tr><td data-label="Number"><%= a.number %></td><td data-label="Name"><%= a.name %></td><td data-label="Account id"><code><%= a.id %></code></td></tr>
<% }) %></tbody></table></div>
${FIELD_ERROR('sandbox')}
<form method="post" action="/developers/apps/<%= it.view.id %>/sandbox-token">${CSRF}<button type="submit"<% if (it.errors && it.errors.sandbox) { %> aria-describedby="sandbox-error"<% } %>>New sandbox token</button></form>
<p class="hint">A new token stops the previous one. At most <%= it.quotas.sandboxTokensPerHour %> new tokens an hour.</p>
</section>

<section class="card" id="oauth" aria-labelledby="h-oauth"><h2 id="h-oauth">OAuth</h2>
<p>Client id: <code id="client-id"><%= it.view.id %></code></p>
<form method="post" action="/developers/apps/<%= it.view.id %>/redirect-uris" novalidate>${CSRF}
<label for="redirect_uris">Redirect URIs</label>
<textarea id="redirect_uris" name="redirect_uris" rows="3"${DESCRIBED('redirect_uris', ' redirect-help')}><%= it.redirectText %></textarea>
<p class="hint" id="redirect-help">One per line, up to 10: https, or http on localhost or 127.0.0.1; no fragment.</p>
${FIELD_ERROR('redirect_uris')}
<button type="submit">Save redirect URIs</button>
</form>
<form method="post" action="/developers/apps/<%= it.view.id %>/client-secret">${CSRF}<button type="submit" class="quiet">New client secret</button></form>
</section>

<section class="card" id="webhooks" aria-labelledby="h-webhooks"><h2 id="h-webhooks">Webhooks</h2>
<% if (it.view.endpoints.length === 0) { %><p>No endpoints.</p><% } %>
<% it.view.endpoints.forEach(function (e) { %><div class="endpoint" id="endpoint-<%= e.id %>">
<h3><code><%= e.url %></code> · <%= e.environment %> · <% if (e.disabled) { %><span class="badge bad">disabled</span><% } else { %><span class="badge ok">active</span><% } %></h3>
<p class="hint">Endpoint id <code><%= e.id %></code></p>
<% if (e.disabled) { %><p class="alert">No attempts go to this endpoint while it is disabled; its pending deliveries wait. Enable it to send them at once.</p>
<form method="post" action="/developers/apps/<%= it.view.id %>/webhook-endpoints/enable">${CSRF}<input type="hidden" name="endpoint_id" value="<%= e.id %>"><button type="submit" aria-label="Enable <%= e.url %> (<%= e.environment %>)">Enable</button></form><% } %>
<div class="tools">
<form method="post" action="/developers/apps/<%= it.view.id %>/webhook-endpoints/test">${CSRF}<input type="hidden" name="endpoint_id" value="<%= e.id %>"><button type="submit" class="quiet small" aria-label="Send test event to <%= e.url %> (<%= e.environment %>)">Send test event</button></form>
<form method="post" action="/developers/apps/<%= it.view.id %>/webhook-endpoints/rotate-secret">${CSRF}<input type="hidden" name="endpoint_id" value="<%= e.id %>"><button type="submit" class="quiet small" aria-label="Rotate secret of <%= e.url %> (<%= e.environment %>)">Rotate secret</button></form>
<form method="post" action="/developers/apps/<%= it.view.id %>/webhook-endpoints/delete">${CSRF}<input type="hidden" name="endpoint_id" value="<%= e.id %>"><button type="submit" class="quiet small" aria-label="Delete <%= e.url %> (<%= e.environment %>)">Delete</button></form>
</div>
<form method="post" action="/developers/apps/<%= it.view.id %>/webhook-endpoints/recover" class="recover" novalidate>${CSRF}<input type="hidden" name="endpoint_id" value="<%= e.id %>">
<label for="since-<%= e.id %>">Since</label>
<input id="since-<%= e.id %>" name="since" type="text" required maxlength="64" value="<%= it.recover && it.recover.endpointId === e.id ? it.recover.since : '' %>" aria-describedby="since-help-<%= e.id %><% if (it.recover && it.recover.endpointId === e.id && it.errors.since) { %> since-error-<%= e.id %><% } %>"<% if (it.recover && it.recover.endpointId === e.id && it.errors.since) { %> aria-invalid="true"<% } %>>
<p class="hint" id="since-help-<%= e.id %>">UTC, e.g. 2026-11-25 08:00 (or ISO 8601 with a zone), within the last <%= it.view.webhookRetentionDays %> days: every event since then is delivered to this endpoint again.</p>
<% if (it.recover && it.recover.endpointId === e.id && it.errors.since) { %><p class="error" id="since-error-<%= e.id %>"><%= it.errors.since %></p><% } %>
<button type="submit" class="quiet small" aria-label="Recover <%= e.url %> (<%= e.environment %>)">Recover</button>
</form>
</div>
<% }) %>
<h3>Add endpoint</h3>
<form method="post" action="/developers/apps/<%= it.view.id %>/webhook-endpoints" novalidate>${CSRF}
<label for="url">URL</label>
<input id="url" name="url" type="url" required maxlength="2000" value="<%= it.endpointUrl %>"${DESCRIBED('url')}>
${FIELD_ERROR('url')}
<label for="environment">Environment</label>
<select id="environment" name="environment"${DESCRIBED('environment')}>
<% ['sandbox', 'production'].forEach(function (e) { %><option value="<%= e %>"<% if (e === it.endpointEnvironment) { %> selected<% } %>><%= e %></option><% }) %>
</select>
${FIELD_ERROR('environment')}
<button type="submit">Add endpoint</button>
</form>
<h3>Latest deliveries</h3>
<% if (it.view.deliveries.length === 0) { %><p>No deliveries yet.</p><% } else { %>
<div class="table"><table class="stack"><thead><tr><th>Event</th><th>Operation</th><th>Environment</th><th>Status</th><th>Attempts</th><th>Last code</th><th>Next attempt</th><th><span class="hint">Action</span></th></tr></thead><tbody>
<% it.view.deliveries.forEach(function (d) { %><tr><td data-label="Event"><code><%= d.event_id %></code><% if (d.eventType !== 'operation.completed') { %> <span class="badge"><%= d.eventType %></span><% } %></td><td data-label="Operation"><% if (d.operation_id) { %><code><%= d.operation_id %></code><% } else { %>–<% } %></td><td data-label="Environment"><%= d.environment %></td><td data-label="Status"><%= d.status %></td>
<td data-label="Attempts"><%= d.attempts %><% if (d.attemptLog.length > 0) { %><details><summary>Attempts of <%= d.event_id.slice(0, 8) %></summary><ol class="attempts">
<% d.attemptLog.forEach(function (a) { %><li><time datetime="<%= a.at.toISOString() %>"><%= a.at.toISOString().slice(0, 19).replace('T', ' ') %> UTC</time> — <%= a.statusCode === null ? '' : a.statusCode + ' ' %><%= a.failure === null ? 'delivered' : a.failure %>, <%= a.durationMs %> ms</li>
<% }) %></ol></details><% } %></td>
<td data-label="Last code"><%= d.last_status_code === null ? '–' : d.last_status_code %></td>
<td data-label="Next attempt"><% if (d.nextAttemptAt) { %><time datetime="<%= d.nextAttemptAt.toISOString() %>"><%= d.nextAttemptAt.toISOString().slice(0, 19).replace('T', ' ') %> UTC</time><% if (d.endpointDisabled) { %> <span class="badge bad">endpoint disabled</span><% } %><% } else { %>–<% } %></td>
<td data-label=""><form method="post" action="/developers/apps/<%= it.view.id %>/deliveries/resend">${CSRF}<input type="hidden" name="event_id" value="<%= d.event_id %>"><input type="hidden" name="endpoint_id" value="<%= d.endpoint_id %>"><button type="submit" class="quiet small" aria-label="Resend <%= d.event_id %>">Resend</button></form></td></tr>
<% }) %></tbody></table></div><% } %>
</section>

<section class="card" id="revisions" aria-labelledby="h-revisions"><h2 id="h-revisions">Revisions</h2>
<p class="hint">Production calls need an approved revision. Submit one; the operator reviews and approves it.</p>
<% if (it.view.revisions.length === 0) { %><p>No revisions yet.</p><% } else { %>
<table><thead><tr><th>Number</th><th>State</th></tr></thead><tbody>
<% it.view.revisions.forEach(function (r) { %><tr><td><%= r.number %></td><td><% if (r.approved) { %><span class="badge ok">approved</span><% } else { %><span class="badge wait">not approved</span><% } %></td></tr>
<% }) %></tbody></table><% } %>
${FIELD_ERROR('revisions')}
<form method="post" action="/developers/apps/<%= it.view.id %>/revisions">${CSRF}<button type="submit"<% if (it.errors && it.errors.revisions) { %> aria-describedby="revisions-error"<% } %>>Submit for review</button></form>
</section>

<section class="card" id="sandbox-entries" aria-labelledby="h-sandbox-entries"><h2 id="h-sandbox-entries">Sandbox entries</h2>
<p class="hint">What this app posted in the sandbox, newest first (the latest <%= it.view.sandboxEntries.length %>), with the documentation attached to each entry.</p>
<% if (it.view.sandboxEntries.length === 0) { %><p>No entries yet.</p><% } else { %>
<div class="table"><table class="stack"><thead><tr><th>Voucher</th><th>Posting date</th><th>Description</th><th>Lines</th><th>Attachments</th><th>Entry id</th></tr></thead><tbody>
<% it.view.sandboxEntries.forEach(function (e) { %><tr><td data-label="Voucher"><%= e.voucher_year %>-<%= e.voucher_number %></td><td data-label="Posting date"><%= e.posting_date %></td><td data-label="Description"><%= e.description === null ? '' : e.description %></td><td data-label="Lines"><%= e.lines.length %></td><td data-label="Attachments"><% if (e.attachments.length === 0) { %>none<% } else { %><ul><% e.attachments.forEach(function (a) { %><li><%= a.filename %> (<%= a.content_type %>, <%= a.size %> bytes)</li><% }) %></ul><% } %></td><td data-label="Entry id"><code><%= e.id %></code></td></tr>
<% }) %></tbody></table></div>
<% } %>
</section>

<section class="card" id="request-log" aria-labelledby="h-request-log"><h2 id="h-request-log">Request log</h2>
<p class="hint">Every call of this app, newest first, kept <%= it.requestLogDays %> days. No body, token, header value or account name is kept.</p>
<form method="get" action="/developers/apps/<%= it.view.id %>#request-log" class="filters">
<label for="log-environment">Environment</label>
<select id="log-environment" name="environment">
<% [['all', 'All'], ['sandbox', 'sandbox'], ['production', 'production']].forEach(function (o) { %><option value="<%= o[0] %>"<% if ((it.view.requestLog.filter.environment || 'all') === o[0]) { %> selected<% } %>><%= o[1] %></option><% }) %>
</select>
<label for="log-status">Status</label>
<select id="log-status" name="status">
<% [['all', 'All'], ['2xx', '2xx'], ['4xx', '4xx'], ['5xx', '5xx']].forEach(function (o) { %><option value="<%= o[0] %>"<% if ((it.view.requestLog.filter.status || 'all') === o[0]) { %> selected<% } %>><%= o[1] %></option><% }) %>
</select>
<label for="log-path">Path contains</label>
<input id="log-path" name="path" type="text" maxlength="200" value="<%= it.view.requestLog.filter.pathContains || '' %>">
<label for="log-request-id">Request id</label>
<input id="log-request-id" name="request_id" type="text" maxlength="200" value="<%= it.view.requestLog.filter.requestId || '' %>">
<button type="submit">Filter</button>
</form>
<% if (it.view.requestLog.calls.length === 0) { %><p>No calls.</p><% } else { %>
<div class="table"><table class="stack"><thead><tr><th>Time</th><th>Environment</th><th>Call</th><th>Status</th><th>Code</th><th>Pointers</th><th>Duration</th><th>Request id</th><th>Client</th><th>Idempotency key</th></tr></thead><tbody>
<% it.view.requestLog.calls.forEach(function (c) { %><tr><td data-label="Time"><time datetime="<%= c.at.toISOString() %>"><%= c.at.toISOString().slice(0, 19).replace('T', ' ') %> UTC</time></td><td data-label="Environment"><%= c.environment %></td><td data-label="Call"><code><%= c.method %> <%= c.path %></code></td><td data-label="Status"><%= c.status %></td><td data-label="Code"><% if (c.code) { %><code><%= c.code %></code><% } else { %>–<% } %></td><td data-label="Pointers"><%= c.pointers.join(', ') %></td><td data-label="Duration"><%= c.durationMs %> ms</td><td data-label="Request id"><code><%= c.requestId %></code></td><td data-label="Client"><%= c.clientAddress %></td><td data-label="Idempotency key"><% if (c.idempotencyKeyPrefix) { %><code><%= c.idempotencyKeyPrefix %>…</code><% } else { %>–<% } %></td></tr>
<% }) %></tbody></table></div><% } %>
<% if (it.view.requestLog.older) { %><p><a href="<%= it.olderHref %>">Older</a></p><% } %>
</section>
<%~ include('@foot', it) %>`,
);

export type DeveloperPage = 'signup' | 'enrol' | 'signin' | 'apps' | 'new-app' | 'app' | 'message';

export function renderPage(name: DeveloperPage, data: Record<string, unknown>): string {
  return renderLayoutPage(name === 'message' ? 'message' : `developer-${name}`, data);
}
