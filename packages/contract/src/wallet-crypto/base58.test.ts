import { describe, expect, it } from 'vitest';
import { base58CheckDecode, base58CheckEncode, base58DecodeStrict, base58Encode } from './base58.js';
import { bytesToHex, hexToBytes, utf8Encode } from './bytes.js';
import { readVectors } from '../../../../test/support/vectors.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const sessions: Json = readVectors('session-key-bundles.json');

describe('base58 (Bitcoin alphabet)', () => {
  it('encodes and decodes known values, keeping leading zeros', () => {
    expect(base58Encode(utf8Encode('Hello World!'))).toBe('2NEpo7TZRRrLZSi2U');
    expect(base58Encode(new Uint8Array([0, 0, 1]))).toBe('112');
    expect(base58Encode(new Uint8Array(0))).toBe('');
    expect(bytesToHex(base58DecodeStrict('112'))).toBe('000001');
    expect(new TextDecoder().decode(base58DecodeStrict('2NEpo7TZRRrLZSi2U'))).toBe('Hello World!');
    for (const bad of ['0', 'O', 'I', 'l', '+', ' ']) expect(() => base58DecodeStrict('2NE' + bad)).toThrow(/base58/);
  });

  it('base58check: a Bitcoin address and its version byte + hash160', async () => {
    const payload = await base58CheckDecode('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2');
    expect(bytesToHex(payload)).toBe('0077bff20c60e522dfaa3350c39b030a5d004e839a');
    expect(await base58CheckEncode(payload)).toBe('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2');
  });

  it('decodes every session-key bundle to 33 + ciphertext bytes whose prefix is the compressed enc', async () => {
    for (const c of sessions.cases) {
      const bytes = await base58CheckDecode(c.encryptedSessionSigningKey);
      expect(bytesToHex(bytes.subarray(0, 33))).toBe(c.encappedPublicCompressedHex);
      expect(bytes.length).toBe(33 + 32 + 16);
      expect(await base58CheckEncode(bytes)).toBe(c.encryptedSessionSigningKey);
    }
  });

  it('refuses a changed character (checksum) and junk (malformed)', async () => {
    const bad = sessions.mustReject.find((r: Json) => r.name === 'bad-checksum');
    await expect(base58CheckDecode(bad.encryptedSessionSigningKey)).rejects.toMatchObject({ code: 'CHECKSUM' });
    await expect(base58CheckDecode('0OIl')).rejects.toMatchObject({ code: 'MALFORMED' });
    await expect(base58CheckDecode('111')).rejects.toMatchObject({ code: 'MALFORMED' });
    const payload = hexToBytes('00ff00ff');
    expect(await base58CheckDecode(await base58CheckEncode(payload))).toEqual(payload);
  });
});
