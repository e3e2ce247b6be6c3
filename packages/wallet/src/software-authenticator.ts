import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { base64UrlDecode, base64UrlEncode, concatBytes, hexToBytes, randomBytes, sha256, signP256, utf8Encode } from '@railyard/contract/wallet-crypto';
import type { WebAuthnDriver } from './passkeys.js';

// ---------------------------------------------------------------------------------------------------------------------
// A minimal CBOR encoder (RFC 8949): unsigned and negative integers, byte strings, text strings, arrays and maps.

/** A value the minimal CBOR encoder can write. Maps keep their insertion order (give keys in canonical order). */
export type CborValue = number | Uint8Array | string | CborValue[] | Map<number | string, CborValue>;

function cborHead(major: number, length: number): Uint8Array {
  const m = major << 5;
  if (length < 24) return Uint8Array.of(m | length);
  if (length < 0x100) return Uint8Array.of(m | 24, length);
  if (length < 0x10000) return Uint8Array.of(m | 25, length >> 8, length & 0xff);
  return Uint8Array.of(m | 26, (length >>> 24) & 0xff, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff);
}

/** Encodes a value as CBOR (definite lengths, shortest heads). */
export function encodeCbor(value: CborValue): Uint8Array {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new TypeError('CBOR: only integers are supported');
    return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = utf8Encode(value);
    return concatBytes(cborHead(3, bytes.length), bytes);
  }
  if (value instanceof Uint8Array) return concatBytes(cborHead(2, value.length), value);
  if (Array.isArray(value)) return concatBytes(cborHead(4, value.length), ...value.map(encodeCbor));
  const parts: Uint8Array[] = [cborHead(5, value.size)];
  for (const [k, v] of value) parts.push(encodeCbor(k), encodeCbor(v));
  return concatBytes(...parts);
}

// ---------------------------------------------------------------------------------------------------------------------

/** Authenticator data flags (WebAuthn §6.1). */
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

/** Options of {@link SoftwarePasskeyAuthenticator}. */
export interface SoftwarePasskeyAuthenticatorOptions {
  /** The web origin the "browser" reports in `clientDataJSON`, e.g. `https://wallet.example.com`. */
  origin: string;
  /** Set the UV flag (user verified). Default true. */
  userVerified?: boolean;
  /** Set the UP flag (user present). Default true; false makes assertions a server must refuse. */
  userPresent?: boolean;
  /** Mark credentials backup-eligible and backed up (BE/BS flags, a synced passkey). Default false. */
  backedUp?: boolean;
  /** The AAGUID (16 bytes) written into attested credential data. Default all zeros. */
  aaguid?: Uint8Array;
  /** Amount the signature counter grows per assertion. Default 1; 0 models authenticators without a counter. */
  counterStep?: number;
}

/** A credential held by the software authenticator. */
export interface SoftwarePasskeyCredential {
  /** The credential id (base64url rawId). */
  id: string;
  rpId: string;
  /** The user handle (base64url). */
  userHandle: string;
  /** The current signature counter. */
  signCount: number;
  /** The COSE_Key (EC2, ES256) of the public key. */
  publicKeyCose: Uint8Array;
  /** The public key, uncompressed SEC1 (65 bytes). */
  publicKeyRaw: Uint8Array;
}

interface StoredCredential extends SoftwarePasskeyCredential {
  privateKey: CryptoKey;
}

class WebAuthnLikeError extends Error {
  constructor(name: 'NotAllowedError' | 'InvalidStateError' | 'NotSupportedError', message: string) {
    super(message);
    this.name = name;
  }
}

/**
 * A software passkey authenticator for Node tests (and any place without `navigator.credentials`): ES256 (P-256) keys in
 * WebCrypto, attestation objects with `fmt: "none"` and a COSE key, assertions whose authenticatorData carries UP/UV flags
 * and a growing signature counter. Its `startRegistration` / `startAuthentication` take and return exactly what
 * `@simplewebauthn/browser`'s functions do, so it plugs into {@link registerPasskey} and {@link assertPasskey} as the
 * `webauthn` driver, and its responses verify with `@simplewebauthn/server`.
 */
export class SoftwarePasskeyAuthenticator implements WebAuthnDriver {
  readonly #options: Required<Omit<SoftwarePasskeyAuthenticatorOptions, 'aaguid'>> & { aaguid: Uint8Array };
  readonly #credentials = new Map<string, StoredCredential>();

  constructor(options: SoftwarePasskeyAuthenticatorOptions) {
    if (options.aaguid && options.aaguid.length !== 16) throw new TypeError('aaguid must be 16 bytes');
    this.#options = {
      origin: options.origin,
      userVerified: options.userVerified ?? true,
      userPresent: options.userPresent ?? true,
      backedUp: options.backedUp ?? false,
      aaguid: options.aaguid ?? new Uint8Array(16),
      counterStep: options.counterStep ?? 1,
    };
  }

  /** The credentials created so far (public parts only). */
  get credentials(): SoftwarePasskeyCredential[] {
    return [...this.#credentials.values()].map(({ privateKey: _privateKey, ...rest }) => ({ ...rest }));
  }

  /** Sets whether the next ceremonies report user verification (UV) and presence (UP). */
  setUserState(state: { userVerified?: boolean; userPresent?: boolean }): void {
    if (state.userVerified !== undefined) this.#options.userVerified = state.userVerified;
    if (state.userPresent !== undefined) this.#options.userPresent = state.userPresent;
  }

  #rpId(explicit: string | undefined): string {
    return explicit ?? new URL(this.#options.origin).hostname;
  }

  #flags(extra = 0): number {
    let flags = extra;
    if (this.#options.userPresent) flags |= FLAG_UP;
    if (this.#options.userVerified) flags |= FLAG_UV;
    if (this.#options.backedUp) flags |= FLAG_BE | FLAG_BS;
    return flags;
  }

  #clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Uint8Array {
    return utf8Encode(JSON.stringify({ type, challenge, origin: this.#options.origin, crossOrigin: false }));
  }

  /** Creates an ES256 credential (like `navigator.credentials.create`) and returns the registration JSON. */
  async startRegistration({ optionsJSON }: { optionsJSON: PublicKeyCredentialCreationOptionsJSON }): Promise<RegistrationResponseJSON> {
    if (!optionsJSON.pubKeyCredParams.some((p) => p.type === 'public-key' && p.alg === -7)) {
      throw new WebAuthnLikeError('NotSupportedError', 'the software authenticator only makes ES256 (alg -7) credentials');
    }
    const rpId = this.#rpId(optionsJSON.rp.id);
    const excluded = new Set((optionsJSON.excludeCredentials ?? []).map((c) => c.id));
    for (const credential of this.#credentials.values()) {
      if (credential.rpId === rpId && excluded.has(credential.id)) throw new WebAuthnLikeError('InvalidStateError', 'a credential in excludeCredentials already exists on this authenticator');
    }
    const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])) as CryptoKeyPair;
    const publicKeyRaw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
    const spki = new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey));
    const publicKeyCose = encodeCbor(
      new Map<number, CborValue>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, publicKeyRaw.slice(1, 33)],
        [-3, publicKeyRaw.slice(33, 65)],
      ]),
    );
    const rawId = randomBytes(32);
    const id = base64UrlEncode(rawId);
    const authData = concatBytes(
      await sha256(rpId),
      Uint8Array.of(this.#flags(FLAG_AT)),
      new Uint8Array(4), // signCount 0
      this.#options.aaguid,
      Uint8Array.of(rawId.length >> 8, rawId.length & 0xff),
      rawId,
      publicKeyCose,
    );
    const attestationObject = encodeCbor(
      new Map<string, CborValue>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    this.#credentials.set(id, { id, rpId, userHandle: optionsJSON.user.id, signCount: 0, publicKeyCose, publicKeyRaw, privateKey: pair.privateKey });
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: base64UrlEncode(this.#clientData('webauthn.create', optionsJSON.challenge)),
        attestationObject: base64UrlEncode(attestationObject),
        authenticatorData: base64UrlEncode(authData),
        transports: ['internal'],
        publicKeyAlgorithm: -7,
        publicKey: base64UrlEncode(spki),
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** Signs an assertion (like `navigator.credentials.get`) with a matching credential and returns the authentication JSON. */
  async startAuthentication({ optionsJSON }: { optionsJSON: PublicKeyCredentialRequestOptionsJSON }): Promise<AuthenticationResponseJSON> {
    const rpId = this.#rpId(optionsJSON.rpId);
    const allowed = optionsJSON.allowCredentials?.map((c) => c.id);
    const credential = [...this.#credentials.values()].find((c) => c.rpId === rpId && (!allowed?.length || allowed.includes(c.id)));
    if (!credential) throw new WebAuthnLikeError('NotAllowedError', `no credential for ${rpId} matches allowCredentials`);
    credential.signCount += this.#options.counterStep;
    const counter = credential.signCount;
    const authData = concatBytes(
      await sha256(rpId),
      Uint8Array.of(this.#flags()),
      Uint8Array.of((counter >>> 24) & 0xff, (counter >> 16) & 0xff, (counter >> 8) & 0xff, counter & 0xff),
    );
    const clientDataJSON = this.#clientData('webauthn.get', optionsJSON.challenge);
    const signature = await signP256(credential.privateKey, concatBytes(authData, await sha256(clientDataJSON)));
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: base64UrlEncode(clientDataJSON),
        authenticatorData: base64UrlEncode(authData),
        signature: base64UrlEncode(hexToBytes(signature)),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** The decoded bytes of a credential id (base64url), for tests that build `allowCredentials` by hand. */
  static rawId(id: string): Uint8Array {
    return base64UrlDecode(id);
  }
}
