import { Eta } from 'eta';

/**
 * The layout every server-rendered page shares (the consent pages of CONTRACT §11, the developer
 * console of §15): head, foot and the message page. Eta escapes every `<%= %>` value, so an app or
 * account name like `<script>` or "Salg & varer" shows as text. No script runs on any page: the forms
 * work with the keyboard and without JavaScript. A module adds its own pages with `definePage`, under
 * names of its own, and renders them with `renderPage`.
 */
const eta = new Eta({ autoEscape: true, autoTrim: false, cache: true });

/** The document's start up to the title, shared by every page's head (a module's own head adds its style after it). */
eta.loadTemplate(
  '@document-start',
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title><%= it.title %><%= it.titleSuffix ?? '' %></title>
`,
);

eta.loadTemplate(
  '@head',
  `<%~ include('@document-start', it) %><style>
body { font-family: system-ui, sans-serif; max-width: 36rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #1a1a1a; }
label { display: block; margin-top: 1rem; font-weight: 600; }
input[type=email], input[type=password], input[type=text], select { display: block; width: 100%; padding: .5rem; font-size: 1rem; box-sizing: border-box; }
.check { display: flex; gap: .5rem; align-items: baseline; }
.check label { display: inline; margin: 0; font-weight: normal; }
fieldset { margin-top: 1rem; }
button { margin-top: 1.25rem; margin-right: .5rem; padding: .6rem 1.2rem; font-size: 1rem; }
:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
.error { color: #b00020; font-weight: 600; border-left: 4px solid #b00020; padding-left: .75rem; }
code { background: #f2f2f2; padding: 0 .25rem; }
</style>
</head>
<body>
<main>
`,
);
eta.loadTemplate('@foot', `</main>\n</body>\n</html>\n`);

eta.loadTemplate(
  '@message',
  `<%~ include('@head', it) %><h1><%= it.title %></h1>
<p role="alert"><%= it.message %></p>
<%~ include('@foot', it) %>`,
);

/**
 * The sign-in fields every sign-in form shares (CONTRACT §11, §15: **Email**, **Password**,
 * **Authenticator code**); `it.email` refills the email, `it.error` (the form's `#form-error`) describes it.
 */
eta.loadTemplate(
  '@sign-in-fields',
  `<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="<%= it.email %>"<% if (it.error) { %> aria-describedby="form-error"<% } %>>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<label for="code">Authenticator code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required aria-describedby="code-help">
<small id="code-help" class="hint">The six digits your authenticator app shows now.</small>
`,
);

/** Registers a page template (`include('@head', it)` / `include('@foot', it)` frame it); `name` without the `@`. */
export function definePage(name: string, template: string): void {
  eta.loadTemplate(`@${name}`, template);
}

/** The page as HTML; `message` (title, message) is always defined. */
export function renderPage(name: string, data: Record<string, unknown>): string {
  return eta.render(`@${name}`, data);
}
