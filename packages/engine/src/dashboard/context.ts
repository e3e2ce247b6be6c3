/** What a dashboard page or action works with: the API as the signed-in credential reaches it, and the request. */
import type { DashboardApi } from './api.js';
import type { Permission, Session } from './session.js';
import type { FormContext, Html } from './view.js';

/** A page's or action's view of one request. */
export interface DashboardContext {
  readonly api: DashboardApi;
  readonly session: Session;
  /** The query of the page's URL. */
  readonly query: URLSearchParams;
  /** The query as a record of its first values (filters and the cursor). */
  readonly queryRecord: Readonly<Record<string, string>>;
  /** The page's own path and query (what an action comes back to). */
  readonly here: string;
  readonly form: FormContext;
  /** Whether the signed-in credential holds a permission (the platform's own holds all). */
  can(permission: Permission): boolean;
}

/** What a page renders: its title, its navigation entry and its body. */
export interface PageView {
  readonly title: string;
  readonly section: string;
  readonly body: Html;
}

/** A page: its path segments after the section (`['Customer:…']` for a customer's page). */
export type Page = (context: DashboardContext, rest: readonly string[]) => Promise<PageView | undefined>;

/** A section's pages: `list` at the section itself, `show` at `<section>/<id>`; any other path is no page. */
export const sectionPages = (list: Page | undefined, show?: Page): Page => (context, rest) =>
  rest.length === 0 && list ? list(context, rest) : rest.length === 1 && show ? show(context, rest) : Promise.resolve(undefined);

/** An action's form fields. */
export type FormFields = Readonly<Record<string, string>>;

/** An action a form posts: the call it makes (resolving with the message to show). The API decides who may. */
export interface Action {
  run(context: DashboardContext, fields: FormFields, file?: { readonly text: string }): Promise<string>;
}
