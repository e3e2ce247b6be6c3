// Base58 (Bitcoin alphabet) and base58check (payload ‖ first 4 bytes of SHA-256(SHA-256(payload))).
import { type Bytes, concatBytes, equalBytes, sha256 } from './bytes.js';
import { WalletCryptoError } from './errors.js';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Map([...ALPHABET].map((c, i) => [c, BigInt(i)]));

/** Base58 (Bitcoin alphabet) of `bytes`; each leading zero byte becomes a leading `1`. */
export function base58Encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  let n = 0n;
  for (const byte of bytes) n = (n << 8n) | BigInt(byte);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  return '1'.repeat(zeros) + out;
}

/** Bytes of a base58 (Bitcoin alphabet) string; throws `MALFORMED` on any other character. */
export function base58DecodeStrict(text: string): Bytes {
  if (typeof text !== 'string') throw new WalletCryptoError('MALFORMED', 'base58 input must be a string');
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  let n = 0n;
  for (const char of text) {
    const digit = INDEX.get(char);
    if (digit === undefined) throw new WalletCryptoError('MALFORMED', `invalid base58 character ${JSON.stringify(char)}`);
    n = n * 58n + digit;
  }
  const body: number[] = [];
  while (n > 0n) {
    body.push(Number(n & 0xffn));
    n >>= 8n;
  }
  const out = new Uint8Array(zeros + body.length);
  for (let i = 0; i < body.length; i++) out[out.length - 1 - i] = body[i]!;
  return out;
}

const checksum = async (payload: Uint8Array) => (await sha256(await sha256(payload))).subarray(0, 4);

/** Base58check of `payload`: base58 of `payload ‖ SHA-256(SHA-256(payload))[0..4]`. */
export async function base58CheckEncode(payload: Uint8Array): Promise<string> {
  return base58Encode(concatBytes(payload, await checksum(payload)));
}

/** The payload of a base58check string; throws `MALFORMED` on bad characters or length and `CHECKSUM` on a checksum mismatch. */
export async function base58CheckDecode(text: string): Promise<Bytes> {
  const bytes = base58DecodeStrict(text);
  if (bytes.length < 4) throw new WalletCryptoError('MALFORMED', 'base58check input is too short');
  const payload = bytes.slice(0, -4);
  if (!equalBytes(bytes.subarray(-4), await checksum(payload))) throw new WalletCryptoError('CHECKSUM', 'base58check checksum does not match');
  return payload;
}
