import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createClient, type RailyardClient } from '@railyard/client';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundlePage } from './build.js';
import { provisionWallet, startPasskeyWalletServer, type ProvisionedWallet, type RunningWalletServer } from './server.js';
import { CHROMIUM, CHROMIUM_ARGS, hasChromium } from '../../test/support/chromium.js';

// The passkey wallet page in a real browser (Debian Chromium through playwright-core, never a downloaded browser) with a
// CDP virtual authenticator: the standalone sandbox server (`railyard serve --regulated`) in a child process, the
// page's backend on loopback relaying through the typed client, and the page signing in with the email code, creating
// a passkey with navigator.credentials.create and signing in with navigator.credentials.get, all through
// @railyard/wallet. Checked through the API: the passkey is a credential, and a PASSKEY session exists.

const ARGS = [
  ...CHROMIUM_ARGS,
  // WebAuthn needs a domain as RP id (not an IP): the page is opened as http://localhost:<port>, resolved here to the
  // loopback address the backend listens on, never looked up.
  '--host-resolver-rules=MAP localhost 127.0.0.1',
];
const CREDENTIALS = { clientId: 'passkey-wallet-example', clientSecret: 'passkey-wallet-example-secret' };

/** `railyard serve --port 0 --regulated` from the built engine; resolves with its base URL. */
async function startSandbox(): Promise<{ child: ChildProcess; baseUrl: string }> {
  const cli = fileURLToPath(new URL('../../packages/engine/dist/cli.cjs', import.meta.url));
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--regulated'], {
    env: { ...process.env, RAILYARD_CLIENT_ID: CREDENTIALS.clientId, RAILYARD_CLIENT_SECRET: CREDENTIALS.clientSecret },
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`railyard serve exited ${code}: ${output}`)));
  });
  return { child, baseUrl };
}

const toBase64Url = (base64: string) => base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

describe.skipIf(!hasChromium)(`passkey wallet page in Chromium (${CHROMIUM})`, () => {
  let sandbox: ChildProcess | undefined;
  let client: RailyardClient;
  let wallet: ProvisionedWallet;
  let server: RunningWalletServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId: string;

  beforeAll(async () => {
    const started = await startSandbox();
    sandbox = started.child;
    client = createClient({ baseUrl: started.baseUrl, ...CREDENTIALS, maxRetries: 0 });
    wallet = await provisionWallet(client, { fullName: 'Wally Wallet', email: 'wally@example.com' });
    server = await startPasskeyWalletServer({ client, wallet, script: await bundlePage() });

    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
    page = await browser.newPage();
    cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    }));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (sandbox && sandbox.exitCode === null) {
      sandbox.kill('SIGTERM');
      await once(sandbox, 'exit');
    }
  });

  /** Clicks a step's button and waits for its output (or fails with the page's error). */
  async function step(button: string, output: string): Promise<string> {
    await page.click(button);
    await page.waitForFunction(
      ([out]) => document.querySelector(out!)!.textContent !== '' || document.querySelector('#error')!.textContent !== '',
      [output], { timeout: 15_000 },
    );
    expect(await page.locator('#error').textContent()).toBe('');
    return (await page.locator(output).textContent())!;
  }

  it('signs in with the email code, registers a passkey with the browser, and signs in with it', async () => {
    const opened = await page.goto(server!.url);
    expect(opened?.status()).toBe(200);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.locator('#wallet').textContent()).toBe(`Wallet ${wallet.accountId} of wally@example.com`);

    const emailSession = await step('#sign-in-email', '#email-session');
    expect(emailSession).toMatch(/^Session:/);

    const [credentialRef, credentialId] = (await step('#add-passkey', '#passkey')).split(' ');
    // The browser's authenticator holds exactly this passkey, for the page's host.
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ rpId: 'localhost', isResidentCredential: true });
    expect(toBase64Url(credentials[0]!.credentialId)).toBe(credentialId);
    const listed = (await client.auth.credentials.list({ accountId: wallet.accountId })).data;
    expect(listed.map((c) => [c.type, c.id])).toEqual([['EMAIL_OTP', wallet.emailCredential.id], ['PASSKEY', credentialRef]]);
    expect(listed[1]).toMatchObject({ nickname: 'This browser', credentialId });

    const [sessionId, sessionType] = (await step('#sign-in-passkey', '#passkey-session')).split(' ');
    expect(sessionType).toBe('PASSKEY');
    await page.waitForFunction(() => document.querySelector('#private')!.textContent !== '' || document.querySelector('#error')!.textContent !== '');
    expect(await page.locator('#error').textContent()).toBe('');
    expect(await page.locator('#private').textContent()).toBe('privateEnabled true');

    const sessions = (await client.auth.sessions.list({ accountId: wallet.accountId })).data;
    expect(sessions.map((s) => [s.id, s.type])).toEqual([[emailSession, 'EMAIL_OTP'], [sessionId, 'PASSKEY']]);
    expect(sessions[1]!.encryptedSessionSigningKey).toBeUndefined(); // the key was made in the browser
    const account = (await client.internalAccounts.list({ customerId: wallet.customerId, currency: 'USDB' })).data[0]!;
    expect(account).toMatchObject({ id: wallet.accountId, privateEnabled: true });
    // The authenticator signed once for the sign-in.
    const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(after.credentials[0]!.signCount).toBeGreaterThanOrEqual(1);
  });
});
