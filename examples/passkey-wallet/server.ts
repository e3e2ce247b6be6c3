// The page's backend: a node:http server on loopback that serves the page and relays its wallet calls to the sandbox
// with the typed client. It holds the platform's API credentials and never a wallet key: signed operations are started
// here, their payloadToSign is stamped in the browser, and the stamp comes back to finish them (client.signedRetry).
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  APIError, type AuthCredentialCreateParams, type PasskeyVerifyParams, type RailyardClient, type SignatureRequired, type SignedResult,
} from '@railyard/client';
import type { RelayError, Started, WalletConfig } from './protocol.js';

/** The relying party's display name shown by the browser; its id is the page's host (WebAuthn's default). */
export const RP_NAME = 'Railyard passkey wallet example';

/** An embedded wallet ready for the page: the customer's USDB account, its EMAIL_OTP credential, the enclave key to pin. */
export interface ProvisionedWallet {
  customerId: string;
  accountId: string;
  emailCredential: { id: string; nickname: string };
  enclaveKey: string;
}

/**
 * Signs a customer up with USDB, which gives them an embedded wallet with an EMAIL_OTP credential (to their email), and
 * reads the sandbox's enclave key for the page to pin. Against production, pin the production key instead.
 */
export async function provisionWallet(client: RailyardClient, customer: { fullName: string; email: string }): Promise<ProvisionedWallet> {
  const created = await client.customers.create({ customerType: 'INDIVIDUAL', ...customer, currencies: ['USD', 'USDB'] });
  const [wallet] = (await client.internalAccounts.list({ customerId: created.id, currency: 'USDB' })).data;
  if (!wallet || wallet.type !== 'EMBEDDED_WALLET') throw new Error(`Customer ${created.id} got no embedded wallet`);
  const email = (await client.auth.credentials.list({ accountId: wallet.id })).data.find((c) => c.type === 'EMAIL_OTP');
  if (!email) throw new Error(`Wallet ${wallet.id} has no EMAIL_OTP credential`);
  const { publicKeyHex } = await client.sandbox.enclaveKey();
  return { customerId: created.id, accountId: wallet.id, emailCredential: { id: email.id, nickname: email.nickname }, enclaveKey: publicKeyHex };
}

/** Options of {@link startPasskeyWalletServer}. */
export interface PasskeyWalletServerOptions {
  client: RailyardClient;
  wallet: ProvisionedWallet;
  /** The bundled page script (build.ts). */
  script: string;
  /** Default 127.0.0.1; open the page as http://localhost:<port> (WebAuthn needs a domain, not an IP, as RP id). */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
}

export interface RunningWalletServer {
  /** The page, at `http://localhost:<port>/`. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

class HttpFailure extends Error {
  constructor(readonly status: number, message: string, readonly code?: string) {
    super(message);
  }
}

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request) {
    text += chunk;
    if (text.length > 64 * 1024) throw new HttpFailure(413, 'The body is too large');
  }
  try {
    const value = text === '' ? {} : (JSON.parse(text) as unknown);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
    return value as Record<string, unknown>;
  } catch {
    throw new HttpFailure(400, 'The body must be a JSON object');
  }
}

/** Starts the page's backend. */
export async function startPasskeyWalletServer(options: PasskeyWalletServerOptions): Promise<RunningWalletServer> {
  const { client, wallet, script } = options;
  const html = await readFile(fileURLToPath(new URL('./page/index.html', import.meta.url)), 'utf8');
  /** Registration challenges issued and not yet used (single use). */
  const registrations = new Set<string>();
  /** Signed operations waiting for the browser's stamp, by ticket. One user in this example: a real backend keys them by its own session. */
  const pending = new Map<string, SignatureRequired>();
  const userHandle = base64url(randomBytes(16));

  /** A signed operation started here: its payloadToSign goes to the browser, which stamps it and calls /wallet/sign. */
  const toBrowser = (result: SignedResult): Started => {
    if (result.status === 'COMPLETED') return { completed: result.data ?? {} };
    const ticket = base64url(randomBytes(16));
    pending.set(ticket, result);
    return { ticket, payloadToSign: result.challenge.payloadToSign };
  };

  /** A credential of this wallet, or 404 (never relay calls about another account's credentials). */
  const ownCredential = async (credentialId: string) => {
    const { data } = await client.auth.credentials.list({ accountId: wallet.accountId });
    if (!data.some((c) => c.id === credentialId)) throw new HttpFailure(404, `${credentialId} is not a credential of this wallet`);
  };

  async function route(method: string, path: string, request: IncomingMessage): Promise<unknown> {
    if (method === 'GET' && path === '/wallet/config') {
      const challenge = base64url(randomBytes(32));
      registrations.add(challenge);
      const config: WalletConfig = {
        accountId: wallet.accountId, emailCredential: wallet.emailCredential, enclaveKey: wallet.enclaveKey,
        registration: { challenge, rpName: RP_NAME, user: { id: userHandle, name: wallet.emailCredential.nickname } },
      };
      return config;
    }
    if (method !== 'POST') throw new HttpFailure(404, `No route ${method} ${path}`);
    const body = await readJson(request);
    if (path === '/wallet/otp/challenge') {
      const challenge = await client.auth.credentials.challenge(wallet.emailCredential.id);
      return { otpEncryptionTargetBundle: challenge.otpEncryptionTargetBundle };
    }
    if (path === '/wallet/otp/verify') {
      const encryptedOtpBundle = String(body.encryptedOtpBundle ?? '');
      return toBrowser(await client.auth.credentials.verify(wallet.emailCredential.id, { type: 'EMAIL_OTP', encryptedOtpBundle }));
    }
    if (path === '/wallet/passkeys') {
      const registration = body as unknown as AuthCredentialCreateParams;
      // Only a registration for this wallet, answering a challenge this backend issued (once).
      if (registration.type !== 'PASSKEY' || registration.accountId !== wallet.accountId || !registrations.delete(registration.challenge)) {
        throw new HttpFailure(400, 'Not a passkey registration of this wallet for a challenge this backend issued');
      }
      return toBrowser(await client.auth.credentials.create(registration));
    }
    const passkey = /^\/wallet\/passkeys\/([^/]+)\/(challenge|verify)$/.exec(path);
    if (passkey) {
      const credentialId = decodeURIComponent(passkey[1]!);
      await ownCredential(credentialId);
      if (passkey[2] === 'challenge') return client.auth.credentials.challenge(credentialId, { clientPublicKey: String(body.clientPublicKey ?? '') });
      const verify = { type: 'PASSKEY', assertion: body.assertion } as PasskeyVerifyParams;
      return client.auth.credentials.verify(credentialId, verify, { requestId: String(body.requestId ?? '') });
    }
    if (path === '/wallet/privacy') {
      return toBrowser(await client.internalAccounts.update(wallet.accountId, { privateEnabled: body.privateEnabled === true }));
    }
    if (path === '/wallet/sign') {
      const operation = pending.get(String(body.ticket ?? ''));
      if (!operation) throw new HttpFailure(404, 'No operation waits for this ticket');
      const result = await client.signedRetry.complete(operation, String(body.stamp ?? ''));
      pending.delete(String(body.ticket));
      return result ?? {};
    }
    throw new HttpFailure(404, `No route ${method} ${path}`);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (method === 'GET' && (path === '/' || path === '/index.html')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    if (method === 'GET' && path === '/app.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
      return;
    }
    try {
      const result = await route(method, path, request);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
    } catch (error) {
      const failure: RelayError & { status: number } = error instanceof APIError
        ? { status: error.status, message: error.serverMessage ?? error.message, ...(error.code ? { code: error.code } : {}) }
        : error instanceof HttpFailure
          ? { status: error.status, message: error.message, ...(error.code ? { code: error.code } : {}) }
          : { status: 500, message: (error as Error).message };
      const { status, ...body } = failure;
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    }
  }

  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}/`,
    port,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
