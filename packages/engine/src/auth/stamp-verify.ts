/**
 * Stamp signatures on the engine's hot path (DESIGN §4: verify with native crypto). On Node, node:crypto verifies a
 * P-256 signature about twice as fast as WebCrypto; elsewhere (a browser running the engine behind msw) the contract's
 * WebCrypto verifier serves.
 */
import type { DecodedWalletStamp } from '@railyard/contract';
import { hexToBytes, utf8Encode, verifyWalletStampSignature } from '@railyard/contract';
import { base64 } from '@scure/base';

import { nodeCrypto, type NodeCrypto } from '../core/native.js';

type KeyObject = ReturnType<NodeCrypto['createPublicKey']>;

/** SPKI header of a compressed P-256 public key (id-ecPublicKey, prime256v1, a 33-byte BIT STRING). */
const SPKI_COMPRESSED_P256 = hexToBytes('3039301306072a8648ce3d020106082a8648ce3d030107032200');
const keys = new Map<string, KeyObject>();

function keyObject(crypto: NodeCrypto, publicKeyCompressedHex: string): KeyObject {
  let key = keys.get(publicKeyCompressedHex);
  if (!key) {
    const der = new Uint8Array(SPKI_COMPRESSED_P256.length + 33);
    der.set(SPKI_COMPRESSED_P256);
    der.set(hexToBytes(publicKeyCompressedHex), SPKI_COMPRESSED_P256.length);
    // PEM rather than DER bytes: no Buffer here, so the module stays portable (this branch runs on Node only).
    key = crypto.createPublicKey(`-----BEGIN PUBLIC KEY-----\n${base64.encode(der)}\n-----END PUBLIC KEY-----\n`);
    if (keys.size > 10_000) keys.clear();
    keys.set(publicKeyCompressedHex, key);
  }
  return key;
}

/**
 * Whether a decoded stamp's signature (DER, high-S accepted) verifies over the exact UTF-8 bytes of `payload` under
 * its public key.
 */
export async function verifyStampSignature(stamp: DecodedWalletStamp, payload: string): Promise<boolean> {
  if (!nodeCrypto) return verifyWalletStampSignature(stamp, payload);
  try {
    return nodeCrypto.verify('sha256', utf8Encode(payload), { key: keyObject(nodeCrypto, stamp.publicKey), dsaEncoding: 'der' }, hexToBytes(stamp.signature));
  } catch {
    return false;
  }
}
