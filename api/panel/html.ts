/**
 * The panel's HTML: escaping, the page layout (navigation from the page
 * list, sign-out form), form helpers that always carry the CSRF token, and
 * the small stylesheet and script served beside it.
 */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML content and attribute values. */
export const esc = (value: unknown): string =>
  (typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value)).replace(
    /[&<>"']/g,
    (c) => ENTITIES[c]!,
  );

/** A tagged template whose interpolations are escaped, unless they are `Html`. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    const part = Array.isArray(v) ? v.map((x) => (x instanceof Html ? x.text : esc(x))).join('') : v instanceof Html ? v.text : esc(v);
    out += part + strings[i + 1]!;
  });
  return new Html(out);
}

/** A form posting to `action` with the session's CSRF token. */
export const form = (action: string, csrf: string, body: Html, attrs = ''): Html =>
  new Html(
    `<form method="post" action="${esc(action)}"${attrs ? ` ${attrs}` : ''}>${html`<input type="hidden" name="csrf" value="${csrf}" />`.text}${body.text}</form>`,
  );

/** A row's revoke button: a form posting `field` = `id` to `action`, labelled for screen readers. */
export const revokeForm = (action: string, csrf: string, field: string, id: string, label: string): Html =>
  form(
    action,
    csrf,
    html`<input type="hidden" name="${field}" value="${id}" /><button type="submit" class="danger" aria-label="Revoke ${label}">Revoke</button>`,
  );

/**
 * A table: its caption, a header row (`scope="col"`) of `columns`, and `rows` (one `<tr>` each), or one row saying
 * there are none; in a region of its own that scrolls sideways when the screen is narrower (the page never does).
 */
export const table = (caption: string, columns: readonly string[], rows: readonly Html[], empty = 'None yet.'): Html =>
  html`<div class="table" role="region" aria-label="${caption}" tabindex="0">
    <table>
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          ${columns.map((c) => html`<th scope="col">${c}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${
          rows.length
            ? rows
            : html`<tr>
                <td colspan="${String(columns.length)}" class="empty">${empty}</td>
              </tr>`
        }
      </tbody>
    </table>
  </div>`;

/** The environment of a new credential (key or application): test, the sandbox, unless live is chosen. */
export const envFieldset = (): Html =>
  html`<fieldset>
    <legend>Environment</legend>
    <label><input type="radio" name="env" value="test" checked /> test (sandbox)</label>
    <label><input type="radio" name="env" value="live" /> live</label>
  </fieldset>`;

/** The value of the "all scopes" choice of a credential form. */
export const ALL_SCOPES = 'all';

/** `offers:read`, `offers:write` → `offers: read, write`: the areas of `scopes` in the order given. */
function byArea(scopes: readonly string[]): Map<string, string[]> {
  const areas = new Map<string, string[]>();
  for (const scope of scopes) {
    const [area, access] = scope.split(':') as [string, string];
    areas.set(area, [...(areas.get(area) ?? []), access]);
  }
  return areas;
}

/** A credential's scopes in a few words: "all scopes", else each area with its accesses. */
export const scopesText = (scopes: readonly string[], all: readonly string[]): string =>
  all.every((s) => scopes.includes(s))
    ? 'all scopes'
    : [...byArea(scopes)].map(([area, accesses]) => `${area}: ${accesses.join(', ')}`).join('; ');

/** The scopes of a new credential: "all scopes", or a checkbox each, one line per area. */
export const scopesFieldset = (scopes: readonly string[]): Html =>
  html`<fieldset class="scopes">
    <legend>Scopes</legend>
    <p>
      <label><input type="checkbox" name="scopes" value="${ALL_SCOPES}" /> <strong>all scopes</strong></label>
    </p>
    ${[...byArea(scopes)].map(
      ([area, accesses]) =>
        html`<p>
          <span class="area">${area}</span>
          ${accesses.map((a) => html`<label><input type="checkbox" name="scopes" value="${`${area}:${a}`}" aria-label="${`${area}:${a}`}" /> ${a}</label>`)}
        </p>`,
    )}
  </fieldset>`;

/** The scopes a credential form chose: every one when "all scopes" is ticked. */
export const chosenScopes = (form: URLSearchParams, all: readonly string[]): string[] =>
  form.getAll('scopes').includes(ALL_SCOPES) ? [...all] : form.getAll('scopes');

/** A duration in words a reader takes in at a glance: `0.4 ms`, `254 ms`, `1.3 s`. */
export const durationText = (ms: number): string =>
  ms < 10 ? `${ms.toFixed(1)} ms` : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;

/** A secret shown once, read-only, with a button that copies it. */
export const secretField = (label: string, secret: string): Html =>
  html`<div class="secret">
    <label for="new-secret">${label}</label><input id="new-secret" type="text" readonly value="${secret}" /><button
      type="button"
      data-copy="new-secret"
    >
      Copy
    </button>
  </div>`;

export interface Notice {
  kind: 'ok' | 'error';
  body: Html;
}

export interface Layout {
  title: string;
  nav?: {
    pages: { slug: string; title: string }[];
    current: string;
    temporalUiUrl: string | null;
    csrf: string;
    account: { id: string; name: string };
  };
  notice?: Notice | null;
  main: Html;
}

export function layout(p: Layout): string {
  const nav = p.nav
    ? html`<nav aria-label="Panel">
        <ul>
          ${p.nav.pages.map((pg) => html`<li><a href="/panel/${pg.slug}" ${pg.slug === p.nav!.current ? new Html(' aria-current="page"') : ''}>${pg.title}</a></li>`)}
          <li><a href="/docs">API reference</a></li>
          ${p.nav.temporalUiUrl ? html`<li><a href="${p.nav.temporalUiUrl}">Temporal UI</a></li>` : ''}
        </ul>
        <p class="account">Account <strong>${p.nav.account.name}</strong> <code>${p.nav.account.id}</code></p>
        ${form('/panel/logout', p.nav.csrf, html`<button type="submit">Sign out</button>`)}
      </nav>`
    : '';
  const notice = p.notice
    ? html`<div class="notice ${p.notice.kind}" role="${p.notice.kind === 'error' ? 'alert' : 'status'}">${p.notice.body}</div>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(p.title)} · offerops panel</title>
<link rel="icon" href="/favicon.ico" type="image/svg+xml">
<link rel="stylesheet" href="/panel/panel.css">
<script src="/panel/panel.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><p class="brand">offerops developer panel</p>${nav.toString()}</header>
<main id="main">
<h1>${esc(p.title)}</h1>
${notice.toString()}
${p.main.text}
</main>
</body>
</html>
`;
}

/** Colours meet WCAG AA contrast (dark text on light, ≥ 7:1 for body text); focus is always visible. */
export const STYLESHEET = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fafafa}
header{background:#14213d;color:#fff;padding:.75rem 1.5rem}
header a{color:#fff}
.brand{margin:0 0 .5rem;font-weight:700}
nav ul{display:flex;flex-wrap:wrap;gap:1rem;list-style:none;margin:0;padding:0}
nav a[aria-current="page"]{font-weight:700;text-decoration:underline 3px}
nav form{display:inline}
.account{margin:.5rem 0;font-size:.9rem}
main{max-width:72rem;margin:0 auto;padding:1.5rem}
a{color:#0b4f9c}
:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
div.table{overflow-x:auto;margin:1rem 0}
table{border-collapse:collapse;width:100%;background:#fff}
caption{text-align:left;font-weight:700;padding:.25rem 0}
@media (max-width:40rem){main{padding:1rem .75rem}header{padding:.75rem 1rem}th,td{padding:.3rem .4rem;font-size:.9rem}}
th,td{border:1px solid #c8c8c8;padding:.4rem .6rem;text-align:left;vertical-align:top}
th{background:#eef1f6}
fieldset{border:1px solid #c8c8c8;margin:1rem 0;padding:.75rem 1rem;background:#fff}
legend{font-weight:700}
label{display:inline-block;margin:.2rem 1rem .2rem 0}
input[type=text],select{font:inherit;padding:.3rem;border:1px solid #6b6b6b;border-radius:3px}
button{font:inherit;padding:.35rem .9rem;border:1px solid #14213d;border-radius:3px;background:#14213d;color:#fff;cursor:pointer}
button.danger{background:#a4161a;border-color:#a4161a}
header button{background:#fff;color:#14213d}
.notice{padding:.75rem 1rem;margin:1rem 0;border-left:6px solid}
.notice.ok{background:#e7f5ea;border-color:#1e7b34}
.notice.error{background:#fdecea;border-color:#a4161a}
.secret{display:flex;gap:.5rem;align-items:center}
.secret input{flex:1;font-family:ui-monospace,monospace;padding:.4rem}
.passed{color:#1e6b2f;font-weight:700}.failed{color:#a4161a;font-weight:700}.skipped{color:#5c4400;font-weight:700}
.state-connected{color:#1e6b2f;font-weight:700}.state-disconnected{color:#a4161a;font-weight:700}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;color:#000;padding:.5rem}
code{font-family:ui-monospace,monospace}
td.empty{color:#4a4a4a;font-style:italic}
.scopes p{margin:.2rem 0}.scopes .area{display:inline-block;min-width:8rem;font-weight:600}
`;

/** The one script: copy buttons (`data-copy="<input id>"`). */
export const SCRIPT = `
document.addEventListener('click', function (e) {
  var button = e.target.closest ? e.target.closest('[data-copy]') : null;
  if (!button) return;
  var input = document.getElementById(button.getAttribute('data-copy'));
  if (!input) return;
  var done = function () { button.textContent = 'Copied'; };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).then(done, function () { input.select(); });
  else { input.select(); document.execCommand('copy'); done(); }
});
`;
