import { Eta } from 'eta';

/**
 * The layout every server-rendered page shares (the consent pages of CONTRACT §11, the developer
 * console of §15, Connected apps of §18): ONE stylesheet, the head with `<html lang>`, a language
 * switch on every page, the message page, the confirmation step and the status/secret shown once.
 * Eta escapes every `<%= %>` value, so an app or account name like `<script>` or "Salg & varer" shows
 * as text. No script runs on any page: the forms work with the keyboard and without JavaScript. A
 * module adds its own pages with `definePage`, under names of its own, and renders them through
 * PageHttp, which gives every page `it.lang`, `it.t` (the catalogues) and `it.fmt` (Intl).
 */
const eta = new Eta({ autoEscape: true, autoTrim: false, cache: true });

/**
 * The one stylesheet (CONTRACT §18), inline under the pages' CSP (`style-src 'unsafe-inline'`, no
 * script): system fonts, a readable measure, AA contrast, one column at 390 px and no sideways scrolling
 * at 320 px (CONTRACT §21), focus indicators (--focus) of at least 3:1 against every background a page
 * uses (white, --bg, the status and alert boxes), a skip link as the first focus stop.
 */
export const STYLESHEET = `
:root { --ink: #1a1d21; --muted: #4b5563; --line: #d5d9e0; --accent: #1d4ed8; --bg: #f6f7f9; --ok: #166534; --bad: #b00020; --focus: #5b21b6; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--bg); }
header.top { background: #fff; border-bottom: 1px solid var(--line); }
header.top .bar { max-width: 64rem; margin: 0 auto; padding: .75rem 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; justify-content: space-between; }
header.top .brand { font-weight: 700; color: var(--ink); text-decoration: none; }
header.top form { margin: 0; }
header.top .top-tools { display: flex; gap: .75rem; align-items: center; flex-wrap: wrap; }
nav.lang ul { list-style: none; display: flex; gap: .5rem; margin: 0; padding: 0; }
nav.lang a { color: var(--accent); padding: .25rem .35rem; }
nav.lang a[aria-current] { color: var(--ink); font-weight: 700; text-decoration: none; }
main { max-width: 64rem; margin: 0 auto; padding: 1rem; overflow-wrap: anywhere; }
header.top .brand { overflow-wrap: anywhere; }
main.narrow { max-width: 36rem; }
h1 { font-size: 1.6rem; margin: 1rem 0; line-height: 1.25; }
h2 { font-size: 1.2rem; margin: 0 0 .75rem; }
h3 { font-size: 1rem; margin: 1rem 0 .5rem; }
section.card, article.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; margin: 0 0 1rem; }
label { display: block; margin-top: .9rem; font-weight: 600; }
label.inline { display: inline; margin-top: 0; font-weight: 400; }
input[type=email], input[type=password], input[type=text], input[type=url], input[type=datetime-local], select, textarea { display: block; width: 100%; margin-top: .25rem; padding: .55rem .6rem; font: inherit; color: var(--ink); background: #fff; border: 1px solid #8a919c; border-radius: 6px; }
textarea { min-height: 6rem; font-family: ui-monospace, monospace; font-size: .9rem; }
fieldset { margin: 1rem 0 0; border: 1px solid var(--line); border-radius: 6px; padding: .5rem 1rem 1rem; }
legend { font-weight: 600; padding: 0 .25rem; }
.check { display: flex; gap: .6rem; align-items: flex-start; margin-top: .5rem; }
.check input { margin-top: .3rem; width: 1.15rem; height: 1.15rem; flex: none; }
.check label { display: inline; margin: 0; font-weight: normal; }
button, a.button { display: inline-block; margin-top: 1rem; margin-right: .5rem; padding: .55rem 1rem; font: inherit; font-weight: 600; color: #fff; background: var(--accent); border: 1px solid var(--accent); border-radius: 6px; cursor: pointer; text-decoration: none; }
button.quiet, a.button.quiet { color: var(--accent); background: #fff; }
button.danger { background: var(--bad); border-color: var(--bad); }
button.small { margin-top: 0; padding: .25rem .6rem; font-size: .9rem; }
button[hidden] { display: none; }
.actions { display: flex; flex-wrap: wrap; align-items: center; gap: 0 .5rem; }
.actions form { margin: 0; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
a.skip { position: absolute; left: -10000px; top: .5rem; z-index: 10; padding: .5rem .75rem; background: #fff; color: var(--accent); font-weight: 600; border-radius: 6px; }
a.skip:focus { left: .5rem; }
main:focus { outline: none; }
a { color: var(--accent); }
.hint { display: block; color: var(--muted); font-size: .9rem; margin: .25rem 0 0; }
.error { color: var(--bad); font-weight: 600; margin: .35rem 0 0; }
.alert { border-left: 4px solid var(--bad); background: #fff5f5; padding: .5rem .75rem; margin: .75rem 0 1rem; }
.status { border-left: 4px solid var(--ok); background: #f0fdf4; padding: .5rem .75rem; font-weight: 600; }
.issued { border: 2px solid var(--ok); background: #f0fdf4; border-radius: 8px; padding: .75rem 1rem; margin: 0 0 1rem; }
.issued code { display: block; margin-top: .4rem; word-break: break-all; font-size: 1rem; background: #fff; }
code { font-family: ui-monospace, monospace; background: #eef0f3; padding: 0 .25rem; border-radius: 3px; word-break: break-all; }
dl.facts { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: .25rem 1rem; margin: .5rem 0; }
dl.facts dt { color: var(--muted); font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.table { width: 100%; overflow-x: auto; }
table { width: 100%; border-collapse: collapse; font-size: .92rem; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td.num, th.num { text-align: right; white-space: nowrap; }
caption.hint { display: table-caption; caption-side: top; text-align: left; margin: 0 0 .25rem; }
ul.files { list-style: none; margin: .25rem 0 0; padding: 0; }
th { color: var(--muted); font-weight: 600; }
ul.apps { list-style: none; padding: 0; }
ul.apps li { background: #fff; border: 1px solid var(--line); border-radius: 8px; margin: 0 0 .5rem; }
ul.apps a { display: block; padding: .75rem 1rem; color: var(--accent); font-weight: 600; }
ul.scopes li { margin: .25rem 0; }
nav.sections { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: 0 0 1rem; }
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
.qr svg { width: 12rem; height: 12rem; background: #fff; }
table.stack td code { word-break: normal; overflow-wrap: anywhere; }
@media (max-width: 600px) {
  section.card, article.card { padding: .75rem; }
  main { padding: .75rem; }
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin-bottom: .35rem; }
  table.stack thead { display: none; }
  table.stack tr { display: block; padding: .5rem 0; border-bottom: 1px solid var(--line); }
  table.stack td { display: flex; gap: .75rem; border: 0; padding: .1rem 0; }
  table.stack td::before { content: attr(data-label); flex: 0 0 9rem; color: var(--muted); font-weight: 600; text-align: left; }
  table.stack td.num { text-align: left; white-space: normal; }
  table.stack td ul.files { margin: 0; }
  table.stack td > form { margin: 0; }
}
`;

/** The document's start up to the title (kept for pages that frame themselves). */
eta.loadTemplate(
  '@document-start',
  `<!doctype html>
<html lang="<%= it.lang || 'en' %>">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title><%= it.title %><%= it.titleSuffix ?? '' %></title>
`,
);

/**
 * The head and the top bar of every page: the brand (`it.brand`, linked to `it.homeHref` when given),
 * the language switch (`it.switchLinks`, made by PageHttp: the same page in the other language), and
 * **Sign out** when `it.signOutAction` is given (with `it.csrf`).
 */
eta.loadTemplate(
  '@head',
  `<%~ include('@document-start', it) %><style>${STYLESHEET}</style>
</head>
<body>
<a class="skip" href="#main"><%= it.t('web.skipToContent') %></a>
<header class="top"><div class="bar">
<% if (it.homeHref) { %><a class="brand" href="<%= it.homeHref %>"><%= it.brand %></a><% } else { %><span class="brand"><%= it.brand %></span><% } %>
<div class="top-tools">
<nav class="lang" aria-label="<%= it.t('web.languageSwitch') %>"><ul>
<% (it.switchLinks || []).forEach(function (l) { %><li><a href="<%= l.href %>" lang="<%= l.lang %>" hreflang="<%= l.lang %>"<% if (l.current) { %> aria-current="true"<% } %>><%= l.label %></a></li>
<% }) %></ul></nav>
<% if (it.signOutAction) { %><form method="post" action="<%= it.signOutAction %>"><input type="hidden" name="_csrf" value="<%= it.csrf %>"><button type="submit" class="quiet small"><%= it.t('web.signOut') %></button></form><% } %>
</div>
</div></header>
<main id="main" tabindex="-1"<% if (it.narrow) { %> class="narrow"<% } %>>
`,
);
eta.loadTemplate('@foot', `</main>\n</body>\n</html>\n`);

eta.loadTemplate(
  '@message',
  `<%~ include('@head', it) %><h1><%= it.title %></h1>
<p role="alert"><%= it.message %></p>
<% if (it.backHref) { %><p><a href="<%= it.backHref %>"><%= it.backLabel %></a></p><% } %>
<%~ include('@foot', it) %>`,
);

/**
 * What one action left for the page the 303 led to (CONTRACT §18), shown once: a status message
 * (`it.flash.status`, already in the page's language) and a secret issued once
 * (`it.flash.secret`: `label`, `value`).
 */
eta.loadTemplate(
  '@flash',
  `<% if (it.flash && it.flash.status) { %><p class="status" role="status" id="status"><%= it.flash.status %></p><% } %>
<% if (it.flash && it.flash.secret) { %><div class="issued" role="status" id="issued"><strong><%= it.flash.secret.label %></strong> — <%= it.t('web.issuedOnce') %><code id="issued-value"><%= it.flash.secret.value %></code></div><% } %>
`,
);

/**
 * A destructive action's confirmation step (CONTRACT §18: a second page, no JavaScript, buttons
 * **Confirm** and **Cancel**): `it.question`, `it.details` (lines), `it.action` (the POST that does it,
 * with `it.fields` as hidden inputs and `it.csrf`), `it.cancelHref` (where Cancel leads, by GET).
 */
eta.loadTemplate(
  '@confirm',
  `<%~ include('@head', it) %><h1><%= it.title %></h1>
<p id="confirm-question"><%= it.question %></p>
<% if (it.details && it.details.length) { %><ul><% it.details.forEach(function (d) { %><li><%= d %></li><% }) %></ul><% } %>
<div class="actions">
<form method="post" action="<%= it.action %>"><input type="hidden" name="_csrf" value="<%= it.csrf %>">
<% Object.entries(it.fields || {}).forEach(function (f) { %><input type="hidden" name="<%= f[0] %>" value="<%= f[1] %>">
<% }) %><% if (it.choice) { %><fieldset><legend><%= it.choice.legend %></legend>
<% it.choice.options.forEach(function (o) { %><div><input type="radio" id="<%= it.choice.name %>-<%= o.value %>" name="<%= it.choice.name %>" value="<%= o.value %>"<% if (o.checked) { %> checked<% } %>> <label for="<%= it.choice.name %>-<%= o.value %>" class="inline"><%= o.label %></label></div>
<% }) %></fieldset><% } %><button type="submit" class="danger" aria-describedby="confirm-question"><%= it.t('web.confirm') %></button></form>
<form method="get" action="<%= it.cancelPath %>"><% Object.entries(it.cancelQuery || {}).forEach(function (f) { %><input type="hidden" name="<%= f[0] %>" value="<%= f[1] %>"><% }) %><button type="submit" class="quiet"><%= it.t('web.cancel') %></button></form>
</div>
<%~ include('@foot', it) %>`,
);

/**
 * A refused form's message at its top (CONTRACT §21): an alert that takes focus when the page loads
 * (`autofocus`, no script), the form's `#form-error`; `it.error` is a catalogue key.
 */
eta.loadTemplate(
  '@form-error',
  `<% if (it.error) { %><p class="error alert" role="alert" id="form-error" tabindex="-1" autofocus><%= it.t(it.error) %></p><% } %>
`,
);

/**
 * The sign-in fields every sign-in form shares (CONTRACT §11, §15: **Email**, **Password**,
 * **Authenticator code**); `it.email` refills the email, `it.error` (the form's `#form-error`) describes it.
 */
eta.loadTemplate(
  '@sign-in-fields',
  `<label for="email"><%= it.t('web.email') %></label>
<input id="email" name="email" type="email" autocomplete="username" required value="<%= it.email %>"<% if (it.error) { %> aria-describedby="form-error"<% } %>>
<label for="password"><%= it.t('web.password') %></label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<label for="code"><%= it.t('web.authenticatorCode') %></label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="9" required aria-describedby="code-help">
<small id="code-help" class="hint"><%= it.t('web.authenticatorCodeHelp') %></small>
`,
);

/** Registers a page template (`include('@head', it)` / `include('@foot', it)` frame it); `name` without the `@`. */
export function definePage(name: string, template: string): void {
  eta.loadTemplate(`@${name}`, template);
}

/** The page as HTML; `message` and `confirm` are always defined. */
export function renderPage(name: string, data: Record<string, unknown>): string {
  return eta.render(`@${name}`, data);
}
