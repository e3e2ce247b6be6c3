/**
 * The dashboard's building blocks: the page around every view, and the tables, lists, forms and links its pages are
 * made of. Everything is escaped by the `html` template; the only script and style are the dashboard's own files
 * (assets.ts), so the Content-Security-Policy allows nothing inline.
 */
import { Html, html } from '../http/html.js';
import type { ApiRefusal } from './api.js';
import { DASHBOARD_PATH, type Permission, type Signer } from './session.js';

export { Html, html };

/** A link below the dashboard: `href('customers', id)` is `/_sandbox/dashboard/customers/<id>`. */
export const href = (...segments: string[]): string =>
  segments.length === 0 ? DASHBOARD_PATH : `${DASHBOARD_PATH}/${segments.map(encodeURIComponent).join('/')}`;

/** A link with a query (empty values left out). */
export function hrefWith(path: string, query: Readonly<Record<string, string | undefined>>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(name, value);
  return search.size === 0 ? path : `${path}?${search}`;
}

/** The page of a record, by the type its id names (`Customer:…`), or undefined for types without one. */
export function recordHref(id: string): string | undefined {
  const type = id.slice(0, id.indexOf(':'));
  const page: Record<string, string> = {
    Customer: 'customers', Transaction: 'transactions', Card: 'cards', CardTransaction: 'transactions', Stablecoin: 'stablecoins',
    Agent: 'agents', Webhook: 'events', InternalAccount: 'accounts',
  };
  return page[type] === undefined ? undefined : href(page[type]!, id);
}

/** An id, linked to its page where it has one. */
export function idLink(id: string | undefined | null): Html {
  if (id === undefined || id === null || id === '') return html`<span class="muted">—</span>`;
  const to = recordHref(id);
  return to === undefined ? html`<code>${id}</code>` : html`<a href="${to}"><code>${id}</code></a>`;
}

const GOOD = new Set(['APPROVED', 'COMPLETED', 'ACTIVE', 'DELIVERED', 'SUCCESS', 'SETTLED', 'VERIFIED', 'ENABLED', 'CLAIMED', 'UNLOCKED']);
const BAD = new Set(['REJECTED', 'FAILED', 'DECLINED', 'CLOSED', 'EXPIRED', 'CANCELLED', 'CANCELED', 'REFUNDED', 'ERROR', 'DISABLED', 'FROZEN']);

/** A status word as a coloured badge. */
export function badge(status: string | undefined | null): Html {
  if (status === undefined || status === null) return html`<span class="muted">—</span>`;
  const tone = GOOD.has(status) ? 'good' : BAD.has(status) ? 'bad' : 'wait';
  return html`<span class="badge ${tone}">${status}</span>`;
}

/** A time, as the sandbox's clock gives it (ISO), shown in UTC without the milliseconds. */
export const when = (iso: string | undefined | null): Html =>
  iso ? html`<time datetime="${iso}">${iso.length >= 19 ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}Z` : iso}</time>` : html`<span class="muted">—</span>`;

/** An amount in minor units with its currency's decimals. */
export function money(amount: number | undefined | null, currency: { code?: string; decimals?: number } | string | undefined | null): Html {
  if (amount === undefined || amount === null) return html`<span class="muted">—</span>`;
  const code = typeof currency === 'string' ? currency : currency?.code ?? '';
  const decimals = typeof currency === 'object' && currency?.decimals !== undefined ? currency.decimals : 2;
  const text = decimals > 0 ? (amount / 10 ** decimals).toFixed(decimals) : String(amount);
  return html`<span class="money">${text} ${code}</span>`;
}

/** A column of a table: its heading and how a row shows in it. */
export interface Column<T> {
  readonly label: string;
  readonly cell: (row: T) => unknown;
}

/** A table of rows, or a line saying there are none. */
export function table<T>(columns: readonly Column<T>[], rows: readonly T[], empty = 'Nothing yet.'): Html {
  if (rows.length === 0) return html`<p class="muted empty">${empty}</p>`;
  return html`<div class="scroll"><table>
<thead><tr>${columns.map((c) => html`<th scope="col">${c.label}</th>`)}</tr></thead>
<tbody>${rows.map((row) => html`<tr>${columns.map((c) => html`<td data-label="${c.label}">${c.cell(row)}</td>`)}</tr>`)}</tbody>
</table></div>`;
}

/** Label and value pairs; undefined values are left out. */
export function facts(pairs: readonly (readonly [string, unknown])[]): Html {
  const shown = pairs.filter(([, value]) => value !== undefined && value !== null && value !== '');
  return html`<dl class="facts">${shown.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>`;
}

/** A section of a page with a heading. */
export const section = (title: string, body: unknown, id?: string): Html =>
  html`<section${id === undefined ? '' : new Html(` id="${id}"`)}><h2>${title}</h2>${body}</section>`;

/** What a section shows when the API refused to read it (the credential may not, or the feature is off). */
export const refusedNote = (refusal: ApiRefusal): Html =>
  html`<p class="refused" role="note"><strong>${refusal.status === 403 ? 'Not allowed for this credential' : 'Not available'}:</strong> ${refusal.describe()}</p>`;

/** Pretty-printed JSON in a block. */
export const json = (value: unknown): Html => html`<pre class="json">${JSON.stringify(value, null, 2)}</pre>`;

/** The links of a page of a list: the first page, and the next one when there is more. */
export function pager(path: string, query: Readonly<Record<string, string | undefined>>, page: { hasMore: boolean; nextCursor?: string | undefined; totalCount: number }, shown: number): Html {
  const first = query.cursor === undefined ? undefined : hrefWith(path, { ...query, cursor: undefined });
  const next = page.hasMore && page.nextCursor ? hrefWith(path, { ...query, cursor: page.nextCursor }) : undefined;
  return html`<nav class="pager" aria-label="Pages"><span class="muted">${shown} shown of ${page.totalCount}</span>
${first ? html`<a href="${first}">First page</a>` : ''}${next ? html`<a href="${next}" rel="next">Next page →</a>` : ''}</nav>`;
}

/** A field of a form. */
export type Field =
  | { readonly name: string; readonly label: string; readonly kind?: 'text' | 'number' | 'datetime' | 'hidden'; readonly value?: string; readonly placeholder?: string; readonly required?: boolean }
  | { readonly name: string; readonly label: string; readonly kind: 'select'; readonly options: readonly string[]; readonly value?: string; readonly blank?: string }
  | { readonly name: string; readonly label: string; readonly kind: 'file'; readonly accept?: string };

function fieldHtml(field: Field): Html {
  if (field.kind === 'hidden') return html`<input type="hidden" name="${field.name}" value="${field.value ?? ''}">`;
  const id = `f-${field.name}`;
  if (field.kind === 'select') {
    return html`<label for="${id}">${field.label}</label><select id="${id}" name="${field.name}">
${field.blank === undefined ? '' : html`<option value="">${field.blank}</option>`}${field.options.map((o) => html`<option${o === field.value ? new Html(' selected') : ''}>${o}</option>`)}</select>`;
  }
  if (field.kind === 'file') return html`<label for="${id}">${field.label}</label><input id="${id}" type="file" name="${field.name}" accept="${field.accept ?? ''}" required>`;
  const type = field.kind === 'number' ? 'number' : 'text';
  return html`<label for="${id}">${field.label}</label><input id="${id}" type="${type}" name="${field.name}" value="${field.value ?? ''}" placeholder="${field.placeholder ?? ''}"${field.required ? new Html(' required') : ''}${field.kind === 'number' ? new Html(' step="any"') : ''}>`;
}

/** A filter form (GET) over a list. */
export const filters = (action: string, fields: readonly Field[]): Html =>
  html`<form class="filters" method="get" action="${action}" role="search">${fields.map((f) => html`<div class="field">${fieldHtml(f)}</div>`)}<div class="field"><button type="submit">Filter</button> <a href="${action}">Clear</a></div></form>`;

/** What every action form needs: where it goes, the CSRF token, and where to come back to. */
export interface FormContext {
  readonly csrf: string;
  /** The page to show again after the action. */
  readonly back: string;
}

/**
 * A form posting an action of the dashboard. `confirm`: the question the browser asks first (assets.ts's script;
 * without the script the action runs without asking, as a plain form does).
 */
export function actionForm(context: FormContext, action: string, label: string, fields: readonly Field[] = [], options: { confirm?: string; secondary?: boolean; multipart?: boolean } = {}): Html {
  return html`<form class="action" method="post" action="${href('actions', action)}"${options.multipart ? new Html(' enctype="multipart/form-data"') : ''}${options.confirm ? html` data-confirm="${options.confirm}"` : ''}>
<input type="hidden" name="csrf" value="${context.csrf}"><input type="hidden" name="back" value="${context.back}">
${fields.map((f) => f.kind === 'hidden' ? fieldHtml(f) : html`<div class="field">${fieldHtml(f)}</div>`)}<button type="submit"${options.secondary ? new Html(' class="secondary"') : ''}>${label}</button></form>`;
}

/** The pages of the navigation. */
const NAVIGATION: readonly (readonly [path: string, label: string])[] = [
  ['', 'Overview'], ['customers', 'Customers'], ['transactions', 'Transactions'], ['cards', 'Cards'], ['stablecoins', 'Stablecoins'],
  ['access', 'Tokens & agents'], ['webhooks', 'Webhooks'], ['feed', 'Live feed'], ['sandbox', 'Sandbox'],
];

/** What the page around a view shows. */
export interface Frame {
  readonly title: string;
  /** The navigation entry that is current. */
  readonly section: string;
  readonly signer?: Signer;
  readonly csrf?: string;
  /** A one-time message after an action. */
  readonly flash?: { readonly kind: 'done' | 'problem'; readonly text: string } | undefined;
}

const permissionsText = (permissions: readonly Permission[]) => permissions.join(' · ');

/** The document around a view. */
export function page(frame: Frame, body: unknown): Html {
  const signer = frame.signer;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${frame.title} · Railyard dashboard</title>
<link rel="stylesheet" href="${href('assets', 'dashboard.css')}">
<script src="${href('assets', 'dashboard.js')}" defer></script>
</head>
<body>
<header class="top">
<a class="brand" href="${href()}">Railyard <small>sandbox</small></a>
${signer ? html`<div class="who"><span title="Signed in with">${signer.credential === 'platform' ? 'Platform' : 'Token'} <code>${signer.id}</code></span>
<span class="perms">${permissionsText(signer.permissions)}</span>
<form method="post" action="${href('sign-out')}"><input type="hidden" name="csrf" value="${frame.csrf ?? ''}"><button class="link" type="submit">Sign out</button></form></div>` : ''}
</header>
${signer ? html`<nav class="main" aria-label="Dashboard">${NAVIGATION.map(([path, label]) => html`<a href="${path === '' ? href() : href(path)}"${path === frame.section ? new Html(' aria-current="page"') : ''}>${label}</a>`)}</nav>` : ''}
<main>
${frame.flash ? html`<p class="flash ${frame.flash.kind}" role="status">${frame.flash.text}</p>` : ''}
${body}
</main>
</body>
</html>
`;
}
