/**
 * The sandbox's dashboard at `/_sandbox/dashboard`, served by `railyard serve` in front of the engine's handler: sign in
 * with the platform's credentials or an API token, then see and drive the platform through the same API calls a client
 * makes (api.ts). Pages are rendered on the server; forms post actions (post, redirect, get); one small script
 * (assets.ts) adds confirmations and the live feed.
 */
import { BASE_PATH, controlPlaneEndpoints, dashboardEndpoints, eventStreamEndpoints, type WireReply } from '@railyard/contract/routes';
import type { Incoming } from '../http/app.js';
import { ApiRefusal, DashboardApi, type Handle } from './api.js';
import { ACTIONS } from './actions.js';
import { DASHBOARD_CSS, DASHBOARD_JS } from './assets.js';
import type { DashboardContext, FormFields, Page } from './context.js';
import { PAGES } from './pages.js';
import {
  DASHBOARD_PATH, FLASH_COOKIE, SESSION_COOKIE, SESSION_TTL_MS, SIGN_IN_COOKIE, SessionCookies, cookieOf, fromThisOrigin,
  randomToken, sameToken, setCookie, type Permission, type Session, type Signer,
} from './session.js';
import { page, type Frame, type Html, html, href } from './view.js';

/** Options of {@link withDashboard}. */
export interface DashboardOptions {
  /**
   * The key session cookies are sealed under: the sandbox's secret key, so every server of a shared sandbox reads the
   * others' sessions and a restart keeps them. Absent: a random key, and sessions end with the process.
   */
  readonly secretKey?: string;
}

/** The most bytes of a form the dashboard reads; a restore (a snapshot file) may be as large as the API takes. */
const FORM_LIMIT = 64 * 1024;
const RESTORE_LIMIT = 256 * 1024 * 1024 + 64 * 1024;

/** Headers of every page: HTML, never cached, only the dashboard's own script and style, not framed. */
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

const reply = (status: number, body: string, headers: Record<string, string> = {}): WireReply => ({ status, headers: { ...PAGE_HEADERS, ...headers }, body });
/** A redirect after a form (post, redirect, get), setting at most one cookie (a reply carries one `Set-Cookie`). */
const seeOther = (location: string, cookie?: string): WireReply => ({
  status: 303, body: null, headers: { location, 'cache-control': 'no-store', ...(cookie === undefined ? {} : { 'set-cookie': cookie }) },
});

/** A page for a person who cannot be helped further (a bad link, a refused form). */
const problemPage = (status: number, title: string, text: string, signer?: Signer) =>
  reply(status, page({ title, section: '', ...(signer ? { signer } : {}) }, html`<h1>${title}</h1><p>${text}</p><p><a href="${href()}">Back to the dashboard</a></p>`).value);

/** A page of the dashboard only the browser's own origin may post to or frame. */
function renderFrame(frame: Frame, body: Html, cookie?: string): WireReply {
  return reply(200, page(frame, body).value, cookie === undefined ? {} : { 'set-cookie': cookie });
}

/** A message for the next page (a cookie, so a link cannot make the dashboard say something). */
const flashCookie = (incoming: Incoming, kind: 'done' | 'problem', text: string) =>
  setCookie(incoming, FLASH_COOKIE, Buffer.from(JSON.stringify({ kind, text: text.slice(0, 2000) })).toString('base64url'), 60);

function readFlash(incoming: Incoming): Frame['flash'] {
  const value = cookieOf(incoming, FLASH_COOKIE);
  if (value === undefined || value.length > 4000) return undefined;
  try {
    const { kind, text } = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as { kind?: unknown; text?: unknown };
    return (kind === 'done' || kind === 'problem') && typeof text === 'string' ? { kind, text } : undefined;
  } catch {
    return undefined;
  }
}

/** Where an action returns to: a page of the dashboard, never elsewhere (no open redirect). */
function backTo(value: string | undefined): string {
  if (value === undefined || !value.startsWith(`${DASHBOARD_PATH}`) || value.includes('//') || value.includes('\\')) return href();
  const rest = value.slice(DASHBOARD_PATH.length);
  return rest === '' || rest.startsWith('/') || rest.startsWith('?') ? value : href();
}

/** The fields of an urlencoded form. */
const formFields = (text: string): FormFields => Object.fromEntries(new URLSearchParams(text));

/** The path segments below the dashboard, decoded; undefined when the path is not the dashboard's (or not decodable). */
function segmentsOf(pathname: string): string[] | undefined | 'bad' {
  if (pathname !== DASHBOARD_PATH && !pathname.startsWith(`${DASHBOARD_PATH}/`)) return undefined;
  try {
    return pathname.slice(DASHBOARD_PATH.length).split('/').filter((s) => s !== '').map(decodeURIComponent);
  } catch {
    return 'bad';
  }
}

/**
 * The engine's handler with the dashboard in front of it: requests below `/_sandbox/dashboard` are the dashboard's,
 * every other request goes to `handle` as it came.
 */
export function withDashboard(handle: Handle, options: DashboardOptions = {}): Handle {
  const sessions = new SessionCookies(options.secretKey);

  const signInPage = (incoming: Incoming, status: number, problem?: string, id = ''): WireReply => {
    const token = randomToken();
    const body = html`<section class="signin"><h1>Sign in</h1>
<p class="muted">With the platform's client id and secret, or an API token's id and secret. The dashboard shows and does only what that credential may.</p>
${problem ? html`<p class="flash problem" role="alert">${problem}</p>` : ''}
<form method="post" action="${href('sign-in')}">
<input type="hidden" name="csrf" value="${token}">
<label for="id">Client id or token id</label><input id="id" name="id" value="${id}" autocomplete="username" required>
<label for="secret">Secret</label><input id="secret" name="secret" type="password" autocomplete="current-password" required>
<p><button type="submit">Sign in</button></p>
</form></section>`;
    return reply(status, page({ title: 'Sign in', section: '' }, body).value, { 'set-cookie': setCookie(incoming, SIGN_IN_COOKIE, token, 3600) });
  };

  async function signIn(incoming: Incoming): Promise<WireReply> {
    const fields = formFields(await incoming.text(FORM_LIMIT));
    const expected = cookieOf(incoming, SIGN_IN_COOKIE);
    if (!fromThisOrigin(incoming) || expected === undefined || !sameToken(expected, fields.csrf ?? '')) {
      return signInPage(incoming, 403, 'The sign-in form expired or came from another site: sign in again.');
    }
    const id = (fields.id ?? '').trim();
    const secret = fields.secret ?? '';
    if (id === '' || secret === '' || id.length > 200 || secret.length > 500) return signInPage(incoming, 400, 'Give the id and the secret.', id.slice(0, 200));
    const authorization = `Basic ${Buffer.from(`${id}:${secret}`, 'utf8').toString('base64')}`;
    const api = new DashboardApi(handle, incoming, authorization);
    let signer: Signer;
    try {
      const who = await api.call(dashboardEndpoints.getSandboxWhoami);
      signer = { platformId: who.platformId, credential: who.credential, id: who.id, permissions: who.permissions as Permission[] };
    } catch (error) {
      if (!(error instanceof ApiRefusal)) throw error;
      const why = error.status === 401 ? 'Those credentials are not valid here.' : error.status === 429 ? `${error.message}` : error.describe();
      return signInPage(incoming, error.status === 429 ? 429 : 401, why, id);
    }
    const { value } = sessions.issue(authorization, signer);
    return seeOther(href(), setCookie(incoming, SESSION_COOKIE, value, SESSION_TTL_MS / 1000));
  }

  /** The session's credential no longer works (a token deleted): the session ends, and the sign-in says why. */
  const signedOut = (incoming: Incoming): WireReply =>
    seeOther(`${href('sign-in')}?ended=credential`, setCookie(incoming, SESSION_COOKIE, '', 0));

  function contextOf(incoming: Incoming, session: Session, url: URL): DashboardContext {
    const here = `${url.pathname}${url.search}`;
    return {
      api: new DashboardApi(handle, incoming, session.authorization),
      session,
      query: url.searchParams,
      queryRecord: Object.fromEntries([...url.searchParams.keys()].map((k) => [k, url.searchParams.get(k)!])),
      here,
      form: { csrf: session.csrf, back: here },
      can: (permission) => session.signer.permissions.includes(permission),
    };
  }

  async function runAction(incoming: Incoming, session: Session, url: URL, name: string): Promise<WireReply> {
    const action = Object.hasOwn(ACTIONS, name) ? ACTIONS[name]! : undefined;
    if (action === undefined) return problemPage(404, 'No such action', `The dashboard has no action ${name}.`, session.signer);
    const type = incoming.header('content-type') ?? '';
    let fields: FormFields;
    let file: { text: string } | undefined;
    if (type.startsWith('multipart/form-data')) {
      const form = await new Response(Buffer.from(await incoming.bytes(RESTORE_LIMIT)), { headers: { 'content-type': type } }).formData().catch(() => undefined);
      if (form === undefined) return problemPage(400, 'The form could not be read', 'Send it again from the dashboard.', session.signer);
      const entries: Record<string, string> = {};
      for (const [key, value] of form) {
        if (typeof value === 'string') entries[key] = value;
        else file = { text: await value.text() };
      }
      fields = entries;
    } else {
      fields = formFields(await incoming.text(FORM_LIMIT));
    }
    if (!fromThisOrigin(incoming) || !sameToken(session.csrf, fields.csrf ?? '')) {
      return problemPage(403, 'Form refused', 'The form did not come from this dashboard session (it may be from another site, or from before you signed in again). Nothing was done.', session.signer);
    }
    const back = backTo(fields.back);
    const context = contextOf(incoming, session, url);
    try {
      const done = await action.run(context, fields, file);
      return seeOther(back, flashCookie(incoming, 'done', done));
    } catch (error) {
      if (!(error instanceof ApiRefusal)) throw error;
      if (error.status === 401) return signedOut(incoming);
      return seeOther(back, flashCookie(incoming, 'problem', error.describe()));
    }
  }

  /** The live feed's stream: the platform's event stream, which the session's credential opens. */
  async function feedStream(context: DashboardContext, incoming: Incoming): Promise<WireReply> {
    const lastEventId = incoming.header('last-event-id') ?? undefined;
    return context.api.send(eventStreamEndpoints.streamSandboxEvents, { query: { lastEventId: lastEventId?.slice(0, 200) } });
  }

  async function download(context: DashboardContext): Promise<WireReply> {
    const answer = await context.api.send(controlPlaneEndpoints.getSandboxSnapshot);
    if (answer.status !== 200) return problemPage(answer.status, 'No snapshot', `The sandbox answered ${answer.status}: ${answer.body ?? ''}`, context.session.signer);
    const name = `railyard-${context.session.signer.platformId.replace(/[^A-Za-z0-9_-]/g, '_')}-snapshot.json`;
    return { status: 200, headers: { 'content-type': 'application/json', 'content-disposition': `attachment; filename="${name}"`, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }, body: answer.body };
  }

  async function showPage(incoming: Incoming, session: Session, url: URL, segments: string[]): Promise<WireReply> {
    const [first = '', ...rest] = segments;
    const render: Page | undefined = Object.hasOwn(PAGES, first) ? PAGES[first] : undefined;
    const context = contextOf(incoming, session, url);
    if (first === 'feed' && rest[0] === 'stream' && rest.length === 1) return feedStream(context, incoming);
    if (first === 'snapshot' && rest.length === 0) return download(context);
    const view = render === undefined ? undefined : await render(context, rest);
    if (view === undefined) return problemPage(404, 'Not found', 'The dashboard has no such page, or the record is not on this platform.', session.signer);
    const flash = readFlash(incoming);
    return renderFrame({ title: view.title, section: view.section, signer: session.signer, csrf: session.csrf, flash }, view.body,
      flash === undefined ? undefined : setCookie(incoming, FLASH_COOKIE, '', 0));
  }

  async function serve(incoming: Incoming, url: URL, segments: string[]): Promise<WireReply> {
    const method = incoming.method.toUpperCase();
    const [first] = segments;
    if (first === 'assets' && segments.length === 2 && (method === 'GET' || method === 'HEAD')) {
      if (segments[1] === 'dashboard.css') return { status: 200, headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }, body: DASHBOARD_CSS };
      if (segments[1] === 'dashboard.js') return { status: 200, headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }, body: DASHBOARD_JS };
    }
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
      return { ...problemPage(405, 'Not allowed', `${method} is not used by the dashboard.`), headers: { ...PAGE_HEADERS, allow: 'GET, HEAD, POST' } };
    }
    const session = sessions.read(incoming);
    if (first === 'sign-in' && segments.length === 1) {
      if (method === 'POST') return signIn(incoming);
      if (session !== undefined) return seeOther(href());
      return signInPage(incoming, 200, url.searchParams.get('ended') === 'credential' ? 'The credential of your session no longer works here (deleted, or the sandbox was reset): sign in again.' : undefined);
    }
    if (first === 'sign-out' && segments.length === 1 && method === 'POST') {
      const fields = formFields(await incoming.text(FORM_LIMIT));
      if (session !== undefined && (!fromThisOrigin(incoming) || !sameToken(session.csrf, fields.csrf ?? ''))) {
        return problemPage(403, 'Form refused', 'The sign-out did not come from this dashboard session.', session.signer);
      }
      return seeOther(href('sign-in'), setCookie(incoming, SESSION_COOKIE, '', 0));
    }
    if (session === undefined) {
      // Nothing of the dashboard but its sign-in is shown without a session.
      return method === 'POST' ? problemPage(401, 'Sign in first', 'This dashboard session has ended: sign in again; nothing was done.') : seeOther(href('sign-in'));
    }
    try {
      if (method === 'POST') {
        if (first === 'actions' && segments.length === 2) return await runAction(incoming, session, url, segments[1]!);
        return problemPage(404, 'Not found', 'The dashboard has no such form.', session.signer);
      }
      return await showPage(incoming, session, url, segments);
    } catch (error) {
      if (error instanceof ApiRefusal && error.status === 401) return signedOut(incoming);
      if (error instanceof ApiRefusal) return problemPage(error.status >= 500 ? 503 : error.status, 'The sandbox refused', error.describe(), session.signer);
      throw error;
    }
  }

  return async (incoming) => {
    let url: URL;
    try {
      url = new URL(incoming.url);
    } catch {
      return handle(incoming);
    }
    // The dashboard lives at the root (its cookies' path); under the base path it is sent there.
    if (url.pathname.startsWith(`${BASE_PATH}${DASHBOARD_PATH}`) && segmentsOf(url.pathname.slice(BASE_PATH.length)) !== undefined) {
      return seeOther(`${url.pathname.slice(BASE_PATH.length)}${url.search}`);
    }
    const segments = segmentsOf(url.pathname);
    if (segments === undefined) return handle(incoming);
    if (segments === 'bad') return problemPage(400, 'Bad link', 'The link is not a valid dashboard address.');
    try {
      return await serve(incoming, url, segments);
    } catch (error) {
      // A body too large or unreadable is the visitor's; anything else is reported as the sandbox's failure.
      const status = (error as { status?: number }).status;
      if (typeof status === 'number' && status >= 400 && status < 500) return problemPage(status, 'Request refused', (error as Error).message);
      console.error('[railyard] the dashboard could not answer', error);
      return problemPage(500, 'The dashboard failed', 'Something went wrong while showing this page; the sandbox is unchanged.');
    }
  };
}

