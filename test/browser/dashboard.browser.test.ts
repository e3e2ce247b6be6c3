import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from '@railyard/engine/server';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recipeOf } from '../../packages/engine/src/trigger/recipes.js';
import { engineTriggerApi, triggerSandbox } from '../../packages/engine/src/testing/trigger-api.js';
import type { Engine } from '../../packages/engine/src/engine.js';
import { CHROMIUM, CHROMIUM_ARGS, hasChromium } from '../support/chromium.js';

// The dashboard in a real browser (Debian Chromium through playwright-core): the standalone server over an engine
// whose webhook receiver answers 200, a payout and a card purchase made through the API, then a person signs in, finds
// the customer, follows the payout's timeline, redelivers one of its webhooks, advances the clock, runs a card
// authorization and watches the live feed; the wrong credential sees nothing. RAILYARD_SCREENSHOTS=1 writes each
// page's screenshot into docs/images/dashboard/ (docs/dashboard.md shows them).

const SCREENSHOTS = process.env.RAILYARD_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../docs/images/dashboard/', import.meta.url)) : undefined;

describe.skipIf(!hasChromium)(`the dashboard in Chromium (${CHROMIUM})`, () => {
  let engine: Engine;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let origin: string;
  let profile: string;
  let payout: Record<string, string>;
  let purchase: Record<string, string>;

  const shot = async (name: string) => {
    if (SCREENSHOTS !== undefined) await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
  };
  const api = (method: string, path: string, body?: unknown) => engine.fetch(`http://sandbox${path.startsWith('/_sandbox') ? '' : '/2025-10-13'}${path}`, {
    method, headers: { authorization: `Basic ${btoa('sandbox-client-id:sandbox-client-secret')}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const flash = () => page.locator('.flash').first().textContent();

  beforeAll(async () => {
    engine = triggerSandbox(false);
    const trigger = engineTriggerApi(engine);
    await trigger.call('PATCH', '/config', { webhookEndpoint: 'https://platform.example/webhooks' });
    payout = await recipeOf('OUTGOING_PAYMENT.COMPLETED')!.run(trigger);
    purchase = await recipeOf('CARD_TRANSACTION.AUTHORIZED')!.run(trigger);
    await engine.webhooks.settled();
    server = await startServer(engine, { port: 0 });
    origin = new URL(server.baseUrl).origin;
    if (SCREENSHOTS !== undefined) await mkdir(SCREENSHOTS, { recursive: true });
    profile = await mkdtemp(join(tmpdir(), 'railyard-dashboard-'));
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it('shows the wrong credential nothing but the sign-in page', async () => {
    await page.goto(`${origin}/_sandbox/dashboard/customers`);
    expect(new URL(page.url()).pathname).toBe('/_sandbox/dashboard/sign-in');
    await page.fill('#id', 'sandbox-client-id');
    await page.fill('#secret', 'not-the-secret');
    await page.click('button[type=submit]');
    await expect(page.locator('.flash.problem').textContent()).resolves.toContain('Those credentials are not valid here.');
    expect(await page.locator('nav.main').count()).toBe(0);
    expect(await page.content()).not.toContain(payout.customer);
    await shot('sign-in');
  });

  it('signs in with the platform’s credentials and shows the overview', async () => {
    await page.fill('#id', 'sandbox-client-id');
    await page.fill('#secret', 'sandbox-client-secret');
    await page.click('button[type=submit]');
    expect(new URL(page.url()).pathname).toBe('/_sandbox/dashboard');
    const customers = (await (await api('GET', '/customers?limit=1')).json()) as { totalCount: number };
    await expect(page.locator('#counts li').first().textContent()).resolves.toBe(`${customers.totalCount}Customers`);
    await shot('overview');
  });

  it('finds a customer with the list’s filters and opens their page', async () => {
    const customer = (await (await api('GET', `/customers/${payout.customer}`)).json()) as { platformCustomerId: string };
    await page.click('nav.main >> text=Customers');
    await page.fill('#f-platformCustomerId', customer.platformCustomerId);
    await page.click('form.filters button[type=submit]');
    const rows = page.locator('section table tbody tr');
    expect(await rows.count()).toBe(1);
    await shot('customers');
    await page.click(`a[href$="${encodeURIComponent(payout.customer!)}"]`);
    await expect(page.locator('#accounts').textContent()).resolves.toContain('Balance');
    await expect(page.locator('#transactions').textContent()).resolves.toContain(payout.transaction);
    await shot('customer');
  });

  it('follows a payout’s timeline: its states and the events it emitted', async () => {
    await page.click(`#transactions a[href$="${encodeURIComponent(payout.transaction!)}"]`);
    const timeline = await page.locator('#timeline li').allTextContents();
    expect(timeline.some((line) => line.includes('OUTGOING_PAYMENT.PENDING'))).toBe(true);
    expect(timeline.at(-1)).toContain('OUTGOING_PAYMENT.COMPLETED');
    expect(timeline.at(-1)).toContain('COMPLETED');
    await shot('transaction');
  });

  it('redelivers a webhook and shows the new attempt', async () => {
    await page.click('#timeline li:last-child a');
    const before = await page.locator('#attempts tbody tr').count();
    expect(before).toBeGreaterThan(0);
    await expect(page.locator('#payload-body').textContent()).resolves.toContain('"type":"OUTGOING_PAYMENT.COMPLETED"');
    await page.click('text=Send it again now');
    await expect(flash()).resolves.toContain('the endpoint answered 200');
    expect(await page.locator('#attempts tbody tr').count()).toBe(before + 1);
    await shot('event');
    await page.click('nav.main >> text=Webhooks');
    await shot('webhooks');
  });

  it('advances the clock, after showing what will run', async () => {
    const before = Date.parse(((await (await api('GET', '/_sandbox/clock')).json()) as { now: string }).now);
    await page.click('nav.main >> text=Sandbox');
    await page.fill('#preview', '6m');
    await page.click('text=Preview');
    await page.fill('#f-by', '6m');
    await page.click('text=Advance the clock');
    await expect(flash()).resolves.toContain('The clock moved on by 6m');
    const after = Date.parse(((await (await api('GET', '/_sandbox/clock')).json()) as { now: string }).now);
    expect(after - before).toBe(360_000);
    await shot('sandbox');
  });

  it('runs a card authorization from the card’s page', async () => {
    await page.goto(`${origin}/_sandbox/dashboard/cards/${encodeURIComponent(purchase.card!)}`);
    const before = await page.locator('#card-transactions tbody tr').count();
    await page.fill('#simulate-authorization #f-amount', '2500');
    await page.click('#simulate-authorization button[type=submit]');
    await expect(flash()).resolves.toContain('APPROVED');
    expect(await page.locator('#card-transactions tbody tr').count()).toBe(before + 1);
    await shot('card');
  });

  it('shows events in the live feed as they are emitted', async () => {
    await page.click('nav.main >> text=Live feed');
    await page.waitForFunction(() => document.getElementById('feed-state')?.textContent?.startsWith('Connected'));
    const account = payout.account;
    const fund = await api('POST', `/sandbox/internal-accounts/${account}/fund`, { amount: 1234 });
    expect(fund.status).toBe(200);
    await page.waitForFunction(() => [...document.querySelectorAll('#feed li')].some((li) => li.textContent?.includes('INTERNAL_ACCOUNT.BALANCE_UPDATED')));
    expect(await page.locator('#feed li a').first().getAttribute('href')).toMatch(/^\/_sandbox\/dashboard\/events\/Webhook%3A/);
    await shot('feed');
  });

  it('shows the other pages, and reads on a phone', async () => {
    for (const [name, path] of [['cards', 'cards'], ['stablecoins', 'stablecoins'], ['access', 'access']] as const) {
      const response = await page.goto(`${origin}/_sandbox/dashboard/${path}`);
      expect(response?.status(), path).toBe(200);
      await shot(name);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${origin}/_sandbox/dashboard/customers/${encodeURIComponent(payout.customer!)}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await shot('phone-customer');
  });
});
