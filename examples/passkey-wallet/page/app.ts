// The wallet page: runs in the browser, bundled by build.ts. Keys are made here with @railyard/wallet (WebCrypto, not
// extractable) and never leave the page; passkeys go through @simplewebauthn/browser, i.e. navigator.credentials.
import { SessionKey, assertPasskey, encryptOtp, registerPasskey } from '@railyard/wallet';
import type { RelayError, Started, WalletConfig } from '../protocol.js';

const $ = <T extends HTMLElement = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

/** Calls the page's backend (same origin); rejects with its error message. */
async function call<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as T | RelayError;
  if (!response.ok) {
    const error = json as RelayError;
    throw new Error(`${error.code ? `${error.code}: ` : ''}${error.message}`);
  }
  return json as T;
}

/** Finishes an operation the backend started: stamps its payloadToSign here, where the session key is. */
async function sign<T>(started: Started, key: SessionKey): Promise<T> {
  if ('completed' in started) return started.completed as T;
  return call<T>('/wallet/sign', { ticket: started.ticket, stamp: await key.stamp(started.payloadToSign) });
}

interface Session { id: string; type: string }
interface Credential { id: string; type: string; credentialId?: string }
interface PasskeyChallenge { challenge: string; credentialId: string; requestId: string }

let config: WalletConfig;
/** The EMAIL_OTP session's key: the TEK sealed into the code. */
let emailSessionKey: SessionKey | undefined;
let passkey: Credential | undefined;

async function signInWithEmailCode(): Promise<void> {
  const { otpEncryptionTargetBundle } = await call<{ otpEncryptionTargetBundle: string }>('/wallet/otp/challenge', {});
  const tek = await SessionKey.generate();
  const encryptedOtpBundle = await encryptOtp({
    targetBundle: otpEncryptionTargetBundle, otpCode: $<HTMLInputElement>('#otp').value.trim(), tekPublicKey: tek, pinnedEnclaveKey: config.enclaveKey,
  });
  const session = await sign<Session>(await call<Started>('/wallet/otp/verify', { encryptedOtpBundle }), tek);
  emailSessionKey = tek;
  $('#email-session').textContent = session.id;
  $<HTMLButtonElement>('#add-passkey').disabled = false;
}

async function addPasskey(): Promise<void> {
  const body = await registerPasskey({
    accountId: config.accountId, nickname: 'This browser', challenge: config.registration.challenge,
    rp: { name: config.registration.rpName }, user: config.registration.user,
  });
  passkey = await sign<Credential>(await call<Started>('/wallet/passkeys', body), emailSessionKey!);
  $('#passkey').textContent = `${passkey.id} ${passkey.credentialId}`;
  $<HTMLButtonElement>('#sign-in-passkey').disabled = false;
}

async function signInWithPasskey(): Promise<void> {
  // The recommended model: a compressed key made here; its private key is the session key.
  const key = await SessionKey.generate();
  const id = encodeURIComponent(passkey!.id);
  const challenge = await call<PasskeyChallenge>(`/wallet/passkeys/${id}/challenge`, { clientPublicKey: key.publicKeyCompressedHex });
  const { assertion } = await assertPasskey({ challenge: challenge.challenge, credentialId: challenge.credentialId });
  const session = await call<Session>(`/wallet/passkeys/${id}/verify`, { assertion, requestId: challenge.requestId });
  $('#passkey-session').textContent = `${session.id} ${session.type}`;
  // The passkey session's key signs a wallet operation: make the wallet private.
  const account = await sign<{ privateEnabled?: boolean }>(await call<Started>('/wallet/privacy', { privateEnabled: true }), key);
  $('#private').textContent = `privateEnabled ${account.privateEnabled}`;
}

/** Runs a step from its button: errors are shown, not thrown away. */
function bind(selector: string, step: () => Promise<void>): void {
  $<HTMLButtonElement>(selector).addEventListener('click', async (event) => {
    const button = event.currentTarget as HTMLButtonElement;
    button.disabled = true;
    $('#error').textContent = '';
    try {
      await step();
    } catch (error) {
      $('#error').textContent = `${selector.slice(1)}: ${(error as Error).message}`;
      button.disabled = false;
    }
  });
}

async function start(): Promise<void> {
  config = await call<WalletConfig>('/wallet/config');
  $('#wallet').textContent = `Wallet ${config.accountId} of ${config.emailCredential.nickname}`;
  bind('#sign-in-email', signInWithEmailCode);
  bind('#add-passkey', addPasskey);
  bind('#sign-in-passkey', signInWithPasskey);
  $<HTMLButtonElement>('#sign-in-email').disabled = false;
  document.body.dataset.ready = 'true';
}

start().catch((error: unknown) => {
  $('#error').textContent = `start: ${(error as Error).message}`;
});
