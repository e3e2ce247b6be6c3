import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForBrowser } from '../support/browser-bundle.js';
import { CHROMIUM, CHROMIUM_ARGS, hasChromium } from '../support/chromium.js';

// The whole sandbox in a browser (Debian Chromium through playwright-core): a page bundled from the built packages
// with esbuild (platform browser) starts `setupWorker(...createHandlers(createEngine(), { origin }))`, and a client
// on that origin runs the payout example (a customer, its USD account funded through client.sandbox, a bank account,
// a quote executed and settled) against the engine in the service worker. A service worker needs a secure context:
// http://127.0.0.1 is one.

/** What the page reports on `window.railyardResult`. */
interface PageResult {
  error?: string;
  trace?: string[];
  notFound?: string;
  openapiServer?: string;
  controlled?: boolean;
}

const PAGE_SCRIPT = `
  import { setupWorker } from 'msw/browser';
  import { createEngine } from '@railyard/engine';
  import { createHandlers } from '@railyard/engine/msw';
  import { createClient } from '@railyard/client';
  import { regulatedSandboxPlatform, runPayout } from './examples/payout/payout.ts';

  const report = (result) => { window.railyardResult = result; };
  try {
    const origin = location.origin;
    const worker = setupWorker(...createHandlers(createEngine(), { origin }));
    await worker.start({ quiet: true, onUnhandledRequest: 'bypass' });
    const client = createClient({ baseUrl: origin + '/2025-10-13', clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret', maxRetries: 0 });
    const trace = await runPayout(await regulatedSandboxPlatform(client), () => undefined);
    let notFound = '';
    try { await client.customers.retrieve('Customer:missing'); } catch (error) { notFound = error.message; }
    const openapiServer = (await client.sandbox.openapi()).servers[0].url;
    report({ trace, notFound, openapiServer, controlled: navigator.serviceWorker.controller !== null });
  } catch (error) {
    report({ error: String(error && error.stack || error) });
  }
`;

describe.skipIf(!hasChromium)(`the engine in a service worker in Chromium (${CHROMIUM})`, () => {
  let site: Server;
  let origin: string;
  let browser: Browser;
  /** Every path the static server was asked for: API calls must never reach it. */
  const served: string[] = [];

  beforeAll(async () => {
    const [{ code }, serviceWorker] = await Promise.all([
      bundleForBrowser(PAGE_SCRIPT),
      readFile(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8'),
    ]);
    // The page names an empty icon, so the browser asks for nothing but these three files.
    const files: Record<string, [type: string, body: string]> = {
      '/': ['text/html; charset=utf-8', '<!doctype html><title>Railyard in a browser</title><link rel="icon" href="data:,"><script type="module" src="/app.js"></script>'],
      '/app.js': ['text/javascript; charset=utf-8', code],
      '/mockServiceWorker.js': ['text/javascript; charset=utf-8', serviceWorker],
    };
    site = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      served.push(path);
      const file = files[path];
      res.writeHead(file ? 200 : 404, { 'content-type': file?.[0] ?? 'text/plain' });
      res.end(file?.[1] ?? 'not found');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
  });

  it('runs the payout flow against the engine in the page\'s service worker', async () => {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => (window as { railyardResult?: unknown }).railyardResult !== undefined, undefined, { timeout: 60_000 });
    const result = await page.evaluate(() => (window as unknown as { railyardResult: PageResult }).railyardResult);
    expect(pageErrors).toEqual([]);
    expect(result.error).toBeUndefined();
    expect(result.controlled).toBe(true);

    const trace = result.trace!;
    expect(trace[0]).toMatch(/^Customer Customer:\S+ \(APPROVED\) with InternalAccount:\S+$/);
    expect(trace).toContain('Funded: balance 500.00 USD');
    expect(trace).toContainEqual(expect.stringMatching(/^Quote Quote:\S+: send 120.00 USD, receive 120.00 USD, fees 0.00 USD$/));
    expect(trace).toContain('Executed: PROCESSING');
    expect(trace).toContainEqual(expect.stringMatching(/^Bank payout Transaction:\S+: COMPLETED$/));
    expect(trace.slice(-4)).toEqual([
      '  INCOMING   500.00 USD  COMPLETED',
      '  OUTGOING   120.00 USD  COMPLETED',
      '  OUTGOING    25.00 USD  COMPLETED',
      'Balance: 355.00 USD',
    ]);
    // Messages and links name the page's own origin, never the standalone default address.
    expect(result.notFound).toBe(`404 USER_NOT_FOUND: Customer Customer:missing was not found (GET ${origin}/2025-10-13/customers/Customer%3Amissing)`);
    expect(result.openapiServer).toBe(`${origin}/2025-10-13`);
    // The service worker answered every API call: the static server saw only the page and its files.
    expect([...new Set(served)].sort()).toEqual(['/', '/app.js', '/mockServiceWorker.js']);
    await page.close();
  }, 90_000);
});
