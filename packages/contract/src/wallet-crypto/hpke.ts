// RFC 9180 HPKE, base mode, single shot: DHKEM(P-256, HKDF-SHA256) / HKDF-SHA256 / AES-256-GCM (AES-128-GCM available for
// the RFC's own test vectors). Extract and Expand are HMAC-SHA256 on WebCrypto (WebCrypto's HKDF has no separate Extract).
import { type Bytes, bytesToHex, concatBytes, hexToBytes, subtle, toBytes, utf8Encode } from './bytes.js';
import { WalletCryptoError } from './errors.js';
import { type P256PrivateKeyInput, exportP256PublicKey, importP256PrivateKey, p256PublicKeyBytes, p256PublicKeyFromPrivate } from './p256.js';

/** The reference service's HPKE info string: 12 ASCII bytes, hex `7475726e6b65795f68706b65`. */
export const HPKE_INFO_HEX = '7475726e6b65795f68706b65';
/** {@link HPKE_INFO_HEX} as bytes (a copy: the codecs use their own, so changing this array changes nothing). */
export const HPKE_INFO: Uint8Array = hexToBytes(HPKE_INFO_HEX);
const DEFAULT_INFO = hexToBytes(HPKE_INFO_HEX);

/** The AEAD of an HPKE suite: AES-256-GCM (0x0002, the reference suite) or AES-128-GCM (0x0001, RFC 9180 A.3 vectors). */
export type HpkeAead = 'AES-256-GCM' | 'AES-128-GCM';

const KEM_ID = 0x0010;
const KDF_ID = 0x0001;
const AEAD: Record<HpkeAead, { id: number; keyLength: number }> = {
  'AES-256-GCM': { id: 0x0002, keyLength: 32 },
  'AES-128-GCM': { id: 0x0001, keyLength: 16 },
};
const NONCE_LENGTH = 12;
const HASH_LENGTH = 32;
const MODE_BASE = 0x00;

const i2osp2 = (n: number) => Uint8Array.of((n >> 8) & 0xff, n & 0xff);
const KEM_SUITE_ID = concatBytes(utf8Encode('KEM'), i2osp2(KEM_ID));
const hpkeSuiteId = (aead: HpkeAead) => concatBytes(utf8Encode('HPKE'), i2osp2(KEM_ID), i2osp2(KDF_ID), i2osp2(AEAD[aead].id));
const HPKE_V1 = utf8Encode('HPKE-v1');
const EMPTY = new Uint8Array(0);

async function hmacSha256(key: Uint8Array, data: Uint8Array): Promise<Bytes> {
  // An empty HMAC key equals a zero-filled key of block size; WebCrypto refuses empty keys, so use HashLen zeros (RFC 5869).
  const raw = key.length === 0 ? new Uint8Array(HASH_LENGTH) : toBytes(key);
  const k = await subtle().importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await subtle().sign('HMAC', k, toBytes(data)));
}

/** HKDF-Extract (RFC 5869) with HMAC-SHA256. */
export function hkdfExtract(salt: Uint8Array, ikm: Uint8Array): Promise<Bytes> {
  return hmacSha256(salt, ikm);
}

/** HKDF-Expand (RFC 5869) with HMAC-SHA256. */
export async function hkdfExpand(prk: Uint8Array, info: Uint8Array, length: number): Promise<Bytes> {
  if (length > 255 * HASH_LENGTH) throw new RangeError('HKDF-Expand length too large');
  const out = new Uint8Array(length);
  let previous: Uint8Array = EMPTY;
  for (let i = 1, filled = 0; filled < length; i++) {
    previous = await hmacSha256(prk, concatBytes(previous, info, Uint8Array.of(i)));
    out.set(previous.subarray(0, Math.min(HASH_LENGTH, length - filled)), filled);
    filled += HASH_LENGTH;
  }
  return out;
}

const labeledExtract = (suiteId: Uint8Array, salt: Uint8Array, label: string, ikm: Uint8Array) =>
  hkdfExtract(salt, concatBytes(HPKE_V1, suiteId, utf8Encode(label), ikm));

const labeledExpand = (suiteId: Uint8Array, prk: Uint8Array, label: string, info: Uint8Array, length: number) =>
  hkdfExpand(prk, concatBytes(i2osp2(length), HPKE_V1, suiteId, utf8Encode(label), info), length);

/** DHKEM ExtractAndExpand: the KEM shared secret from the DH output and kem_context = enc ‖ pkRm. */
async function extractAndExpand(dh: Uint8Array, kemContext: Uint8Array): Promise<Bytes> {
  const eaePrk = await labeledExtract(KEM_SUITE_ID, EMPTY, 'eae_prk', dh);
  return labeledExpand(KEM_SUITE_ID, eaePrk, 'shared_secret', kemContext, HASH_LENGTH);
}

const contextCache = new Map<string, Promise<Bytes>>();

/** key_schedule_context = mode ‖ psk_id_hash ‖ info_hash; it depends only on the suite and info, so it is cached (a few entries). */
function keyScheduleContext(suiteId: Uint8Array, info: Uint8Array, aead: HpkeAead): Promise<Bytes> {
  const id = `${aead}:${bytesToHex(info)}`;
  let context = contextCache.get(id);
  if (!context) {
    context = (async () => {
      const pskIdHash = await labeledExtract(suiteId, EMPTY, 'psk_id_hash', EMPTY);
      const infoHash = await labeledExtract(suiteId, EMPTY, 'info_hash', info);
      return concatBytes(Uint8Array.of(MODE_BASE), pskIdHash, infoHash);
    })();
    if (contextCache.size >= 16) contextCache.clear();
    contextCache.set(id, context);
  }
  return context;
}

/** The base-mode key schedule: AEAD key and base nonce. */
async function keySchedule(sharedSecret: Uint8Array, info: Uint8Array, aead: HpkeAead): Promise<{ key: Bytes; baseNonce: Bytes }> {
  const suiteId = hpkeSuiteId(aead);
  const context = await keyScheduleContext(suiteId, info, aead);
  const secret = await labeledExtract(suiteId, sharedSecret, 'secret', EMPTY);
  const key = await labeledExpand(suiteId, secret, 'key', context, AEAD[aead].keyLength);
  const baseNonce = await labeledExpand(suiteId, secret, 'base_nonce', context, NONCE_LENGTH);
  return { key, baseNonce };
}

async function ecdh(privateKey: CryptoKey, publicKeyBytes: Bytes): Promise<Bytes> {
  const pub = await subtle().importKey('raw', publicKeyBytes, { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  return new Uint8Array(await subtle().deriveBits({ name: 'ECDH', public: pub }, privateKey, 256));
}

async function aesKey(key: Bytes, usage: 'encrypt' | 'decrypt'): Promise<CryptoKey> {
  return subtle().importKey('raw', key, { name: 'AES-GCM' }, false, [usage]);
}

/** Options of {@link hpkeSeal} and {@link hpkeOpen}. */
export interface HpkeOptions {
  /** HPKE `info`; defaults to the reference info string {@link HPKE_INFO}. */
  info?: Uint8Array;
  /** AEAD additional data; defaults to the reference AAD: `enc` (uncompressed, 65 B) ‖ recipient public key (uncompressed, 65 B). */
  aad?: Uint8Array;
  /** AEAD of the suite; defaults to AES-256-GCM (the reference suite). */
  aead?: HpkeAead;
}

/** Options of {@link hpkeSeal}. */
export interface HpkeSealOptions extends HpkeOptions {
  /** Deterministic ephemeral key (32-byte scalar hex), for known-answer tests only; a fresh random key otherwise. */
  ephemeralPrivateKeyHex?: string;
}

/** Result of {@link hpkeSeal}: the encapsulated key (uncompressed SEC1 hex, 130) and `ciphertext ‖ tag` in hex. */
export interface HpkeSealed {
  encappedPublicHex: string;
  ciphertextHex: string;
}

/** The reference AAD: the uncompressed encapsulated key followed by the uncompressed recipient public key. */
export function hpkeReferenceAad(encappedPublicHex: string, recipientPublicKeyHex: string): Bytes {
  return concatBytes(p256PublicKeyBytes(encappedPublicHex), p256PublicKeyBytes(recipientPublicKeyHex));
}

/**
 * HPKE single-shot seal (RFC 9180 base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM) to a P-256 public key
 * (compressed or uncompressed hex). Uses the reference info and AAD unless `options` say otherwise.
 */
export async function hpkeSeal(recipientPublicKeyHex: string, plaintext: Uint8Array | string, options: HpkeSealOptions = {}): Promise<HpkeSealed> {
  const aead = options.aead ?? 'AES-256-GCM';
  const pkRm = p256PublicKeyBytes(recipientPublicKeyHex);
  let skE: CryptoKey;
  let enc: Bytes;
  if (options.ephemeralPrivateKeyHex) {
    const encHex = p256PublicKeyFromPrivate(options.ephemeralPrivateKeyHex);
    skE = await importP256PrivateKey(options.ephemeralPrivateKeyHex, 'ECDH', { publicKeyHex: encHex });
    enc = hexToBytes(encHex);
  } else {
    const pair = (await subtle().generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits'])) as CryptoKeyPair;
    skE = pair.privateKey;
    enc = new Uint8Array(await subtle().exportKey('raw', pair.publicKey));
  }
  const dh = await ecdh(skE, pkRm);
  const sharedSecret = await extractAndExpand(dh, concatBytes(enc, pkRm));
  const { key, baseNonce } = await keySchedule(sharedSecret, options.info ?? DEFAULT_INFO, aead);
  const aad = options.aad ?? concatBytes(enc, pkRm);
  const data = typeof plaintext === 'string' ? utf8Encode(plaintext) : toBytes(plaintext);
  const ct = await subtle().encrypt({ name: 'AES-GCM', iv: baseNonce, additionalData: toBytes(aad), tagLength: 128 }, await aesKey(key, 'encrypt'), data);
  return { encappedPublicHex: bytesToHex(enc), ciphertextHex: bytesToHex(new Uint8Array(ct)) };
}

/** Options of {@link hpkeOpen}. */
export interface HpkeOpenOptions extends HpkeOptions {
  /**
   * The recipient's public key (hex). Needed for kem_context and the AAD: derived from a hex private key when absent,
   * or exported from an extractable `CryptoKey`; required with a non-extractable one.
   */
  recipientPublicKeyHex?: string;
}

/**
 * HPKE single-shot open (the inverse of {@link hpkeSeal}). `recipientPrivateKey` is an ECDH `CryptoKey` with `deriveBits`
 * or a 32-byte scalar in hex; `encappedPublicHex` may be compressed or uncompressed (it is used uncompressed);
 * `ciphertext` is `ct ‖ tag` as bytes or hex. Throws `DECRYPTION_FAILED` when authentication fails, `MALFORMED` on bad input.
 */
export async function hpkeOpen(
  recipientPrivateKey: P256PrivateKeyInput,
  encappedPublicHex: string,
  ciphertext: Uint8Array | string,
  options: HpkeOpenOptions = {},
): Promise<Bytes> {
  const aead = options.aead ?? 'AES-256-GCM';
  const enc = p256PublicKeyBytes(encappedPublicHex);
  const ct = typeof ciphertext === 'string' ? hexToBytes(ciphertext, 'ciphertext') : toBytes(ciphertext);
  if (ct.length < 16) throw new WalletCryptoError('MALFORMED', 'ciphertext is shorter than the 16-byte tag');
  let pkRmHex = options.recipientPublicKeyHex;
  let skR: CryptoKey;
  if (typeof recipientPrivateKey === 'string') {
    pkRmHex ??= p256PublicKeyFromPrivate(recipientPrivateKey);
    skR = await importP256PrivateKey(recipientPrivateKey, 'ECDH', { publicKeyHex: pkRmHex });
  } else {
    skR = recipientPrivateKey;
    pkRmHex ??= await exportP256PublicKey(recipientPrivateKey);
  }
  const pkRm = p256PublicKeyBytes(pkRmHex);
  let dh: Bytes;
  try {
    dh = await ecdh(skR, enc);
  } catch (cause) {
    throw new WalletCryptoError('MALFORMED', 'HPKE key agreement failed (is the recipient key an ECDH P-256 private key?)', { cause });
  }
  const sharedSecret = await extractAndExpand(dh, concatBytes(enc, pkRm));
  const { key, baseNonce } = await keySchedule(sharedSecret, options.info ?? DEFAULT_INFO, aead);
  const aad = options.aad ?? concatBytes(enc, pkRm);
  try {
    const pt = await subtle().decrypt({ name: 'AES-GCM', iv: baseNonce, additionalData: toBytes(aad), tagLength: 128 }, await aesKey(key, 'decrypt'), ct);
    return new Uint8Array(pt);
  } catch (cause) {
    throw new WalletCryptoError('DECRYPTION_FAILED', 'HPKE open failed: wrong key, or the ciphertext, info or AAD was altered', { cause });
  }
}
