import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type RailyardClient } from '@railyard/client';
import { createEngine, DEFAULT_CREDENTIALS } from '@railyard/engine';
import { startServer, type RunningServer } from '@railyard/engine/server';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_1X1 } from '../../packages/engine/src/hosted/testing.js';
import { CHROMIUM, CHROMIUM_ARGS, hasChromium } from '../support/chromium.js';

// The hosted verification page in a real browser (Debian Chromium through playwright-core, never a downloaded browser):
// the standalone server in process, a customer and a link made through the API, the page opened, a document uploaded
// through its form, Complete pressed, the redirect to redirectUri followed, and the used link reopened.


describe.skipIf(!hasChromium)(`hosted verification page in Chromium (${CHROMIUM})`, () => {
  let server: RunningServer;
  let platformSite: Server;
  let redirectUri: string;
  let context: BrowserContext;
  let profile: string;
  let client: RailyardClient;
  let passportPath: string;

  beforeAll(async () => {
    server = await startServer(createEngine(), { port: 0 });
    client = createClient({ baseUrl: server.baseUrl, ...DEFAULT_CREDENTIALS, maxRetries: 0 });
    // The platform's own page the customer returns to.
    platformSite = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Platform</title><h1 id="back">Back on the platform</h1><p>${req.url === undefined ? '' : 'welcome back'}</p>`);
    });
    await new Promise<void>((resolve) => platformSite.listen(0, '127.0.0.1', resolve));
    redirectUri = `http://127.0.0.1:${(platformSite.address() as AddressInfo).port}/onboarding/done`;

    profile = await mkdtemp(join(tmpdir(), 'railyard-chromium-'));
    passportPath = join(profile, 'passport.png');
    await writeFile(passportPath, PNG_1X1);
    context = await chromium.launchPersistentContext(join(profile, 'user-data'), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
  }, 20_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    await new Promise<void>((resolve) => (platformSite ? platformSite.close(() => resolve()) : resolve()));
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it('shows what is missing, uploads a document, completes, lands on redirectUri, and the link is then used up', async () => {
    const customer = await client.customers.create({
      customerType: 'INDIVIDUAL',
      fullName: 'Ada <b>Lovelace</b>',
      birthDate: '1990-12-10',
      nationality: 'US',
      address: { line1: '12 St James Square', city: 'London', postalCode: '12345', country: 'US' },
      idType: 'SSN',
      identifier: '123-45-6789',
    });
    const link = await client.customers.createKycLink(customer.id, { redirectUri });
    expect(link.kycUrl.startsWith(new URL(server.baseUrl).origin)).toBe(true);

    const page = await context.newPage();
    const opened = await page.goto(link.kycUrl);
    expect(opened?.status()).toBe(200);
    // The name is shown as text (escaped), not as markup.
    await expect(page.locator('h1').first().textContent()).resolves.toBe('Ada <b>Lovelace</b>');
    expect(await page.locator('main').textContent()).toContain('Individual (KYC)');
    const missing = await page.locator('#missing li').allTextContents();
    expect(missing).toHaveLength(1);
    expect(missing[0]).toContain('MISSING_IDENTITY_DOCUMENT');
    expect(missing[0]).toContain('PASSPORT');

    await page.selectOption('#documentType', 'PASSPORT');
    await page.fill('#documentNumber', 'P1234567');
    await page.fill('#issuingAuthority', 'US Department of State');
    await page.setInputFiles('#file', passportPath);
    await Promise.all([page.waitForURL(/notice=document-uploaded/), page.click('#upload button[type=submit]')]);
    expect(await page.locator('[role=status]').textContent()).toContain('your document was uploaded');
    expect(await page.locator('#nothing-missing').textContent()).toContain('Nothing is missing');
    expect(await page.locator('#documents').textContent()).toContain('passport.png');
    const documents = await client.documents.list({ documentHolder: customer.id });
    expect(documents.data.map((d) => [d.documentType, d.fileName])).toEqual([['PASSPORT', 'passport.png']]);

    await Promise.all([page.waitForURL((url) => url.toString().startsWith(redirectUri)), page.click('#complete')]);
    expect(page.url()).toBe(`${redirectUri}?status=completed`);
    expect(await page.locator('#back').textContent()).toBe('Back on the platform');
    // Finishing means only that the flow finished: the verification is under review.
    expect(await client.customers.retrieve(customer.id)).toMatchObject({ kycStatus: 'PENDING' });

    const reopened = await page.goto(link.kycUrl);
    expect(reopened?.status()).toBe(410);
    expect(await page.locator('h1').textContent()).toBe('This verification link has already been used');
    expect(await page.content()).not.toContain('"code"');
    await page.close();
  });
});
