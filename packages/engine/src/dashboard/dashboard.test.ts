import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { startServer, type RunningServer } from '../server/server.js';
import { SESSION_COOKIE, SIGN_IN_COOKIE } from './session.js';

// The dashboard over the standalone server, as a browser drives it (cookies, forms, redirects), without a browser:
// nothing without a session, the CSRF rules, what a token may see and do, and that the session carries no secret in the clear.

const PLATFORM = { id: 'sandbox-client-id', secret: 'sandbox-client-secret' };
const basic = `Basic ${btoa(`${PLATFORM.id}:${PLATFORM.secret}`)}`;

let engine: Engine;
let server: RunningServer;
let origin: string;

beforeAll(async () => {
  engine = createEngine();
  server = await startServer(engine, { port: 0 });
  origin = new URL(server.baseUrl).origin;
});
afterAll(() => server.close());

const dash = (path = '') => `${origin}/_sandbox/dashboard${path}`;

/** A cookie's value from a reply's Set-Cookie. */
function setCookieValue(response: Response, name: string): string | undefined {
  const header = response.headers.get('set-cookie') ?? '';
  const start = header.indexOf(`${name}=`);
  return start < 0 ? undefined : header.slice(start + name.length + 1).split(';')[0];
}

/** A signed-in browser: the session cookie and the CSRF token of its forms. */
interface Browser {
  readonly cookie: string;
  get(path?: string): Promise<Response>;
  post(path: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<Response>;
  csrf(): Promise<string>;
}

async function signIn(id: string, secret: string): Promise<{ response: Response; browser?: Browser }> {
  const form = await fetch(dash('/sign-in'));
  const token = setCookieValue(form, SIGN_IN_COOKIE)!;
  const response = await fetch(dash('/sign-in'), {
    method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `${SIGN_IN_COOKIE}=${token}`, 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ csrf: token, id, secret }),
  });
  const session = setCookieValue(response, SESSION_COOKIE);
  if (response.status !== 303 || !session) return { response };
  const cookie = `${SESSION_COOKIE}=${session}`;
  const browser: Browser = {
    cookie,
    get: (path = '') => fetch(dash(path), { headers: { cookie }, redirect: 'manual' }),
    post: (path, fields, headers = {}) => fetch(dash(path), {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, 'sec-fetch-site': 'same-origin', ...headers },
      body: new URLSearchParams(fields),
    }),
    async csrf() {
      const html = await (await browser.get('/sandbox')).text();
      return /name="csrf" value="([0-9a-f]{32})"/.exec(html)![1]!;
    },
  };
  return { response, browser };
}

const api = (path: string, init: RequestInit = {}, authorization = basic) =>
  fetch(`${server.baseUrl}${path}`, { ...init, headers: { authorization, 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });

async function clockNow(): Promise<string> {
  return ((await (await api('/_sandbox/clock')).json()) as { now: string }).now;
}

describe('the dashboard without credentials', () => {
  it('shows nothing but its sign-in page', async () => {
    for (const path of ['', '/customers', '/webhooks', '/snapshot', '/feed/stream', '/transactions/Transaction:x']) {
      const response = await fetch(dash(path), { redirect: 'manual' });
      expect(response.status, path).toBe(303);
      expect(response.headers.get('location')).toBe('/_sandbox/dashboard/sign-in');
      expect(await response.text()).toBe('');
    }
    const before = await clockNow();
    const post = await fetch(dash('/actions/advance-clock'), { method: 'POST', body: new URLSearchParams({ by: '1h' }), redirect: 'manual' });
    expect(post.status).toBe(401);
    expect(await clockNow()).toBe(before);
  });

  it('serves its sign-in page under a policy that allows no inline script, style or framing', async () => {
    const response = await fetch(dash('/sign-in'));
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    const html = await response.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(html).not.toContain('style=');
    expect(response.headers.get('set-cookie')).toContain('HttpOnly; SameSite=Strict');
  });

  it('refuses a wrong secret, and a sign-in posted without the form’s token', async () => {
    const wrong = await signIn(PLATFORM.id, 'not-the-secret');
    expect(wrong.response.status).toBe(401);
    expect(wrong.browser).toBeUndefined();
    expect(await wrong.response.text()).toContain('Those credentials are not valid here.');
    const forged = await fetch(dash('/sign-in'), {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: 'a'.repeat(32), id: PLATFORM.id, secret: PLATFORM.secret }),
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.get('set-cookie') ?? '').not.toContain(`${SESSION_COOKIE}=`);
  });

  it('sends the base path’s address to the dashboard’s own', async () => {
    const response = await fetch(`${server.baseUrl}/_sandbox/dashboard/customers?x=1`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/_sandbox/dashboard/customers?x=1');
  });
});

describe('signed in with the platform’s credentials', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = (await signIn(PLATFORM.id, PLATFORM.secret)).browser!;
  });

  it('keeps no secret in the clear in its cookie, and shows the overview with real counts', async () => {
    expect(browser.cookie).not.toContain(PLATFORM.secret);
    expect(browser.cookie).not.toContain(btoa(`${PLATFORM.id}:${PLATFORM.secret}`));
    const created = await api('/customers', { method: 'POST', body: JSON.stringify({ customerType: 'INDIVIDUAL', platformCustomerId: 'dash-1', fullName: 'Dash <One>' }) });
    expect(created.status).toBe(201);
    const total = ((await (await api('/customers?limit=1')).json()) as { totalCount: number }).totalCount;
    const overview = await browser.get();
    expect(overview.status).toBe(200);
    const html = await overview.text();
    expect(html).toContain(`<strong>${total}</strong>Customers`);
    expect(html).toContain('sandbox-client-id');
    const customers = await (await browser.get('/customers?platformCustomerId=dash-1')).text();
    expect(customers).toContain('Dash &lt;One&gt;');
    expect(customers).not.toContain('Dash <One>');
  });

  it('runs an action posted with the session’s token, and refuses one without it or from another site', async () => {
    const before = await clockNow();
    const noToken = await browser.post('/actions/advance-clock', { by: '1h', csrf: 'b'.repeat(32) });
    expect(noToken.status).toBe(403);
    const csrf = await browser.csrf();
    const crossSite = await browser.post('/actions/advance-clock', { by: '1h', csrf }, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(await clockNow()).toBe(before);

    const done = await browser.post('/actions/advance-clock', { by: '1h', csrf, back: '/_sandbox/dashboard/sandbox' });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/_sandbox/dashboard/sandbox');
    expect(Date.parse(await clockNow()) - Date.parse(before)).toBe(3_600_000);
  });

  it('downloads a snapshot, resets the platform, and restores it from the uploaded file', async () => {
    const download = await browser.get('/snapshot');
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="railyard-.*-snapshot\.json"$/);
    const snapshot = await download.text();
    const count = async () => ((await (await api('/customers?limit=1')).json()) as { totalCount: number }).totalCount;
    const before = await count();
    expect(before).toBeGreaterThan(0);
    const csrf = await browser.csrf();
    const reset = await browser.post('/actions/reset', { csrf, back: '/_sandbox/dashboard/sandbox' });
    expect(reset.status).toBe(303);
    expect(await count()).toBe(0);
    const form = new FormData();
    form.set('csrf', csrf);
    form.set('back', '/_sandbox/dashboard/sandbox');
    form.set('snapshot', new Blob([snapshot], { type: 'application/json' }), 'snapshot.json');
    const restored = await fetch(dash('/actions/restore'), { method: 'POST', body: form, redirect: 'manual', headers: { cookie: browser.cookie, 'sec-fetch-site': 'same-origin' } });
    expect(restored.status).toBe(303);
    expect(decodeURIComponent(Buffer.from(restored.headers.get('set-cookie')!.split(';')[0]!.split('=')[1]!, 'base64url').toString())).toContain('restored from the snapshot');
    expect(await count()).toBe(before);
  });

  it('comes back only to its own pages', async () => {
    const csrf = await browser.csrf();
    for (const back of ['https://evil.example/', '//evil.example/', '/_sandbox/dashboardx', '/elsewhere']) {
      const response = await browser.post('/actions/advance-clock', { by: '1s', csrf, back });
      expect(response.headers.get('location'), back).toBe('/_sandbox/dashboard');
    }
  });

  it('answers a bad form with the API’s reasons on the page, and changes nothing', async () => {
    const csrf = await browser.csrf();
    const before = await clockNow();
    const response = await browser.post('/actions/advance-clock', { by: 'soon', csrf, back: '/_sandbox/dashboard/sandbox' });
    expect(response.status).toBe(303);
    const page = await fetch(dash('/sandbox'), { headers: { cookie: `${browser.cookie}; ${response.headers.get('set-cookie')!.split(';')[0]}` } });
    expect(await page.text()).toContain('by must be like 30s, 6m, 2h, 1d');
    expect(await clockNow()).toBe(before);
  });

  it('answers an unknown page, action or record with a 404 page, and a malformed path with a 400', async () => {
    expect((await browser.get('/nowhere')).status).toBe(404);
    expect((await browser.get('/customers/Customer:nobody')).status).toBe(404);
    expect((await browser.post('/actions/nothing', { csrf: await browser.csrf() })).status).toBe(404);
    expect((await browser.get('/customers/%E0%A4%A')).status).toBe(400);
  });
});

describe('signed in with an API token', () => {
  let viewer: Browser;
  let token: { id: string; clientId: string; clientSecret: string };

  beforeAll(async () => {
    token = (await (await api('/tokens', { method: 'POST', body: JSON.stringify({ name: 'read only', permissions: ['VIEW'] }) })).json()) as typeof token;
    viewer = (await signIn(token.clientId, token.clientSecret)).browser!;
  });

  it('shows what VIEW may read, offers no action it may not take, and is refused one all the same', async () => {
    expect(await (await viewer.get('/customers')).text()).toContain('Customers');
    const sandbox = await (await viewer.get('/sandbox')).text();
    expect(sandbox).toContain('Advancing the clock needs MANAGE.');
    expect(sandbox).not.toContain('/_sandbox/dashboard/actions/advance-clock');
    const before = await clockNow();
    const response = await viewer.post('/actions/advance-clock', { by: '1h', csrf: await viewer.csrf(), back: '/_sandbox/dashboard/sandbox' });
    expect(response.status).toBe(303);
    expect(decodeURIComponent(response.headers.get('set-cookie') ?? '')).toContain('railyard_dashboard_flash=');
    const page = await fetch(dash('/sandbox'), { headers: { cookie: `${viewer.cookie}; ${response.headers.get('set-cookie')!.split(';')[0]}` } });
    expect(await page.text()).toContain('needs MANAGE');
    expect(await clockNow()).toBe(before);
  });

  it('ends the session once the token is deleted', async () => {
    expect((await api(`/tokens/${encodeURIComponent(token.id)}`, { method: 'DELETE' })).status).toBe(204);
    const response = await viewer.get('/customers');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/_sandbox/dashboard/sign-in?ended=credential');
  });
});

describe('sessions across servers', () => {
  it('are read by a server with the same secret key, and refused by any other', async () => {
    const key = 'k'.repeat(32);
    const first = await startServer(createEngine(), { port: 0, dashboard: { secretKey: key } });
    const second = await startServer(createEngine(), { port: 0, dashboard: { secretKey: key } });
    const other = await startServer(createEngine(), { port: 0 });
    try {
      const at = (s: RunningServer, path = '') => `${new URL(s.baseUrl).origin}/_sandbox/dashboard${path}`;
      const form = await fetch(at(first, '/sign-in'));
      const token = setCookieValue(form, SIGN_IN_COOKIE)!;
      const signed = await fetch(at(first, '/sign-in'), {
        method: 'POST', redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `${SIGN_IN_COOKIE}=${token}` },
        body: new URLSearchParams({ csrf: token, id: PLATFORM.id, secret: PLATFORM.secret }),
      });
      const cookie = `${SESSION_COOKIE}=${setCookieValue(signed, SESSION_COOKIE)}`;
      expect((await fetch(at(second), { headers: { cookie }, redirect: 'manual' })).status).toBe(200);
      expect((await fetch(at(other), { headers: { cookie }, redirect: 'manual' })).status).toBe(303);
    } finally {
      await Promise.all([first.close(), second.close(), other.close()]);
    }
  });
});
