/**
 * Webhook signatures (SPEC §5 item 6; REFERENCE §8; DESIGN §3): ECDSA P-256 with SHA-256 over the exact raw body,
 * sent as `X-Service-Signature: {"v":"1","s":"<standard base64 of the DER signature>"}`. Each platform has its own key
 * pair, made with WebCrypto on first use (so the engine signs in browsers and workers too); its public key is served as
 * SPKI PEM at `GET /_sandbox/webhook-key`.
 */

import { derToP1363, p1363ToDer, WebhookSignature } from '@railyard/contract';

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/** A platform's signing key pair. */
export interface WebhookKey {
  readonly privateKey: CryptoKey;
  /** SPKI PEM, as receivers configure it. */
  readonly publicKeyPem: string;
}

const base64 = (bytes: Uint8Array): string => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
};

const pem = (label: string, der: ArrayBuffer): string =>
  `-----BEGIN ${label}-----\n${base64(new Uint8Array(der)).replace(/.{1,64}/g, '$&\n')}-----END ${label}-----\n`;

const unpem = (text: string): Uint8Array<ArrayBuffer> => {
  const body = text.replace(/-----(BEGIN|END) [A-Z ]+-----/g, '').replace(/\s+/g, '');
  return Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
};

async function withPublicPem(privateKey: CryptoKey, publicKey: CryptoKey): Promise<WebhookKey> {
  return { privateKey, publicKeyPem: pem('PUBLIC KEY', await crypto.subtle.exportKey('spki', publicKey)) };
}

/** The private half as PKCS#8 PEM (for a durable store, which keeps it sealed). */
export async function exportWebhookKeyPem(key: WebhookKey): Promise<string> {
  return pem('PRIVATE KEY', await crypto.subtle.exportKey('pkcs8', key.privateKey));
}

/** A fresh key pair. */
export async function generateWebhookKey(): Promise<WebhookKey> {
  const pair = await crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  return withPublicPem(pair.privateKey, pair.publicKey);
}

/** A key pair from a PKCS#8 PEM private key (tests sign with the reference vectors' key this way). */
export async function importWebhookKey(privateKeyPem: string): Promise<WebhookKey> {
  const privateKey = await crypto.subtle.importKey('pkcs8', unpem(privateKeyPem), ALGORITHM, true, ['sign']);
  // The public half: a JWK of the private key without `d` is its public key.
  const { d: _d, key_ops: _ops, ...jwk } = await crypto.subtle.exportKey('jwk', privateKey);
  const publicKey = await crypto.subtle.importKey('jwk', { ...jwk, key_ops: ['verify'] }, ALGORITHM, true, ['verify']);
  return withPublicPem(privateKey, publicKey);
}

/** The `X-Service-Signature` value for a raw body. */
export async function signatureHeader(key: WebhookKey, body: string): Promise<string> {
  const raw = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key.privateKey, new TextEncoder().encode(body)));
  return JSON.stringify({ v: '1', s: base64(p1363ToDer(raw)) });
}

/** The DER signature an `X-Service-Signature` value carries (the JSON form, or a bare base64 value as the reference's examples tolerate), or undefined. */
function signatureBytes(header: string): Uint8Array<ArrayBuffer> | undefined {
  let encoded = header.trim();
  if (encoded.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(encoded);
    } catch {
      return undefined;
    }
    const signature = WebhookSignature.safeParse(parsed);
    if (!signature.success) return undefined;
    encoded = signature.data.s;
  }
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  try {
    return Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** Whether `header` (an `X-Service-Signature` value) is `key`'s signature over the exact `body`; false for a malformed one. */
export async function isValidSignatureHeader(key: WebhookKey, body: string, header: string | null): Promise<boolean> {
  const der = header === null ? undefined : signatureBytes(header);
  if (der === undefined) return false;
  let raw: Uint8Array;
  try {
    raw = derToP1363(der);
  } catch {
    return false;
  }
  const publicKey = await crypto.subtle.importKey('spki', unpem(key.publicKeyPem), ALGORITHM, false, ['verify']);
  return crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, publicKey, new Uint8Array(raw), new TextEncoder().encode(body));
}
