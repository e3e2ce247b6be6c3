/**
 * Lists as the dashboard shows them: one page of the API's list (never more: fast at a million records), filters made
 * from the list's own query schema (so the form offers exactly what the API takes), and a pager.
 */
import type { Endpoint } from '@railyard/contract';
import type { Page as ApiPage } from '@railyard/contract/routes';
import { attempt } from './api.js';
import type { DashboardContext } from './context.js';
import { filters, pager, refusedNote, section, table, type Column, type Field, type Html, html } from './view.js';

/** Rows per page of every dashboard list. */
export const PAGE_SIZE = 25;

/** Query fields that are not filters. */
const NOT_FILTERS = new Set(['limit', 'cursor']);

interface ZodDef {
  readonly type: string;
  readonly innerType?: { readonly _zod: { readonly def: ZodDef } };
  readonly in?: { readonly _zod: { readonly def: ZodDef } };
  readonly entries?: Readonly<Record<string, string>>;
  readonly options?: readonly { readonly _zod: { readonly def: ZodDef } }[];
}

/** The values of an enum query field (through optional, default and pipe wrappers), or undefined for free text. */
function choicesOf(def: ZodDef): string[] | undefined {
  if ((def.type === 'optional' || def.type === 'default' || def.type === 'nullable') && def.innerType) return choicesOf(def.innerType._zod.def);
  if (def.type === 'pipe' && def.in) return choicesOf(def.in._zod.def);
  if (def.type === 'enum' && def.entries) return Object.values(def.entries);
  return undefined;
}

/** Splits a camelCase name into words: `platformCustomerId` → `Platform customer id`. */
function labelOf(name: string): string {
  let out = '';
  for (const char of name) out += char >= 'A' && char <= 'Z' ? ` ${char.toLowerCase()}` : char;
  return out.charAt(0).toUpperCase() + out.slice(1);
}

/** The filter fields of a list endpoint, from its query schema, filled with the page's current values. */
export function filterFieldsOf(endpoint: Endpoint, current: Readonly<Record<string, string>>, omit: readonly string[] = []): Field[] {
  const shape = (endpoint.query as unknown as { shape?: Record<string, { _zod: { def: ZodDef } }> } | undefined)?.shape ?? {};
  const fields: Field[] = [];
  for (const [name, schema] of Object.entries(shape)) {
    if (NOT_FILTERS.has(name) || omit.includes(name)) continue;
    const choices = choicesOf(schema._zod.def);
    const value = current[name] ?? '';
    fields.push(choices === undefined
      ? { name, label: labelOf(name), value }
      : { name, label: labelOf(name), kind: 'select', options: choices, value, blank: 'Any' });
  }
  return fields;
}

/** The filter values of a page's query that the endpoint takes (the cursor included). */
export function listQueryOf(endpoint: Endpoint, current: Readonly<Record<string, string>>): Record<string, string> {
  const shape = (endpoint.query as unknown as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
  const query: Record<string, string> = {};
  for (const name of Object.keys(shape)) if (name !== 'limit' && current[name] !== undefined && current[name] !== '') query[name] = current[name]!;
  return query;
}

/** One page of a list as a table with its pager, or the reason the API gave for not showing it. */
export async function listTable<T>(
  context: DashboardContext, call: Promise<ApiPage<T>>, columns: readonly Column<T>[],
  options: { readonly path?: string; readonly query?: Readonly<Record<string, string | undefined>>; readonly empty?: string } = {},
): Promise<Html> {
  const answer = await attempt(call);
  if (!answer.ok) return refusedNote(answer.refused);
  const page = answer.value;
  const pages = options.path === undefined ? html`<p class="muted">${page.data.length} shown of ${page.totalCount}</p>` : pager(options.path, options.query ?? {}, page, page.data.length);
  return html`${table(columns, page.data, options.empty)}${pages}`;
}

/** A list page: filters from the endpoint's query, one page of results, a pager. */
export async function listPage<T>(
  context: DashboardContext, title: string, path: string, endpoint: Endpoint, fetch: (query: Record<string, string>) => Promise<ApiPage<T>>,
  columns: readonly Column<T>[], options: { readonly omit?: readonly string[]; readonly before?: Html } = {},
): Promise<Html> {
  const query = listQueryOf(endpoint, context.queryRecord);
  const body = await listTable(context, fetch({ ...query, limit: String(PAGE_SIZE) }), columns, { path, query });
  return html`<h1>${title}</h1>${options.before ?? ''}${section('Filters', filters(path, filterFieldsOf(endpoint, context.queryRecord, options.omit)))}${section(title, body)}`;
}
