/**
 * Wire-format codecs of the embedded wallet, written once for the engine (server side) and
 * `@railyard/wallet` (client side). Web-standard APIs (WebCrypto, TextEncoder, BigInt) and @noble/curves' P-256 arithmetic
 * (its Weierstrass module alone): Node 20+, browsers, workers.
 * Published on its own as `@railyard/contract/wallet-crypto` (and re-exported by the main entry): nothing here may import
 * zod or a module that does, so that a browser wallet bundles these codecs without the schemas.
 */
export * from './errors.js';
export {
  type Bytes,
  bytesToHex,
  hexToBytes,
  utf8Encode,
  utf8Decode,
  concatBytes,
  equalBytes,
  base64UrlEncode,
  base64UrlDecode,
  sha256,
  sha256Hex,
  randomBytes,
} from './bytes.js';
export * from './p256.js';
export * from './hpke.js';
export * from './base58.js';
export * from './stamp.js';
export * from './bundles.js';
