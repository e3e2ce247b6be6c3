import { createHash, generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import { base58, base58check, bech32 } from '@scure/base';
import * as bitcoinMessage from 'bitcoinjs-message';
import { privateKeyToAccount, sign as viemSign } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { signatureFamily } from './families.js';
import {
  bitcoinMessageDigest,
  verifyBitcoinMessage,
  verifyEip191,
  verifySolana,
  verifyWalletSignature,
} from './signatures.js';

// Signatures are made by libraries independent of the verifier: viem for EIP-191 and raw secp256k1 signing,
// node:crypto (OpenSSL) for Ed25519 and for every hash on the signing side of the Bitcoin tests, and bitcoinjs-message
// (a wallet library's message signer) for Bitcoin signatures as wallets make them.

const MESSAGE = 'Railyard ownership proof\naddress: X\nnonce: 8f1e2d\nexpires: 2026-01-01T00:10:00.000Z';
const PK1 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as const;
const PK2 = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a' as const;

const sha = (b: Uint8Array) => new Uint8Array(createHash('sha256').update(b).digest());
const hash160 = (b: Uint8Array) => new Uint8Array(createHash('ripemd160').update(sha(b)).digest());
const hexToBytes = (hex: string) => Uint8Array.from(Buffer.from(hex.replace(/^0x/, ''), 'hex'));
const flipLastChar = (s: string) => s.slice(0, -1) + (s.endsWith('a') ? 'b' : 'a');

describe('EIP-191 personal_sign (viem)', () => {
  const account = privateKeyToAccount(PK1);
  const other = privateKeyToAccount(PK2);

  it('accepts a viem signature for the signer address in any case', async () => {
    const signature = await account.signMessage({ message: MESSAGE });
    expect(verifyEip191(account.address, MESSAGE, signature)).toBe(true);
    expect(verifyEip191(account.address.toLowerCase(), MESSAGE, signature)).toBe(true);
    expect(verifyEip191('0x' + account.address.slice(2).toUpperCase(), MESSAGE, signature)).toBe(true);
    expect(verifyEip191(account.address, MESSAGE, signature.slice(2))).toBe(true);
  });

  it('accepts v as 0/1 as well as 27/28', async () => {
    const signature = await account.signMessage({ message: MESSAGE });
    const v = parseInt(signature.slice(-2), 16);
    const low = signature.slice(0, -2) + (v - 27).toString(16).padStart(2, '0');
    expect(verifyEip191(account.address, MESSAGE, low)).toBe(true);
  });

  it('handles unicode and empty messages (length in bytes)', async () => {
    for (const message of ['', 'héllo ✓ 世界', 'x'.repeat(1000)]) {
      const signature = await account.signMessage({ message });
      expect(verifyEip191(account.address, message, signature)).toBe(true);
    }
  });

  it('rejects another signer, another message, tampered bytes and bad v', async () => {
    const signature = await account.signMessage({ message: MESSAGE });
    expect(verifyEip191(other.address, MESSAGE, signature)).toBe(false);
    expect(verifyEip191(account.address, MESSAGE + ' ', signature)).toBe(false);
    expect(verifyEip191(account.address, MESSAGE, signature.slice(0, 10) + (signature[10] === '0' ? '1' : '0') + signature.slice(11))).toBe(false);
    expect(verifyEip191(account.address, MESSAGE, signature.slice(0, -2) + '1d')).toBe(false);
    expect(verifyEip191(account.address, MESSAGE, signature.slice(0, -2) + '05')).toBe(false);
  });

  it('never throws on malformed input', () => {
    for (const sig of ['', '0x', 'zz', '0x' + '00'.repeat(65), '0x' + 'ff'.repeat(65), '0x' + '1'.repeat(131), 'not hex at all']) {
      expect(verifyEip191(account.address, MESSAGE, sig)).toBe(false);
    }
    expect(verifyEip191('0x1234', MESSAGE, '0x' + '00'.repeat(65))).toBe(false);
    expect(verifyEip191(undefined as never, MESSAGE, null as never)).toBe(false);
  });
});

describe('Solana Ed25519 (node:crypto)', () => {
  const keypair = () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
    return { address: base58.encode(raw), privateKey };
  };
  const signWith = (privateKey: ReturnType<typeof keypair>['privateKey'], message: string) =>
    base58.encode(nodeSign(null, Buffer.from(message, 'utf8'), privateKey));

  it('accepts a node:crypto Ed25519 signature over the UTF-8 message', () => {
    const { address, privateKey } = keypair();
    for (const message of [MESSAGE, 'héllo ✓', '']) {
      expect(verifySolana(address, message, signWith(privateKey, message))).toBe(true);
    }
  });

  it('rejects another key, another message and tampered signatures', () => {
    const a = keypair();
    const b = keypair();
    const signature = signWith(a.privateKey, MESSAGE);
    expect(verifySolana(b.address, MESSAGE, signature)).toBe(false);
    expect(verifySolana(a.address, MESSAGE + '!', signature)).toBe(false);
    const bytes = base58.decode(signature);
    bytes[10]! ^= 1;
    expect(verifySolana(a.address, MESSAGE, base58.encode(bytes))).toBe(false);
  });

  it('never throws on malformed input', () => {
    const { address, privateKey } = keypair();
    const signature = signWith(privateKey, MESSAGE);
    for (const sig of ['', '0OIl', 'abc', base58.encode(new Uint8Array(63)), base58.encode(new Uint8Array(64)), signature + '2']) {
      expect(verifySolana(address, MESSAGE, sig)).toBe(false);
    }
    expect(verifySolana('0OIl', MESSAGE, signature)).toBe(false);
    expect(verifySolana(base58.encode(new Uint8Array(31)), MESSAGE, signature)).toBe(false);
  });
});

describe('Bitcoin message signatures (BIP-137 and Electrum)', () => {
  // Signing side follows BIP-137 literally: hash with node:crypto, sign the digest with viem's raw secp256k1 signer,
  // header = 27 + recId (+4 compressed P2PKH, +8 P2SH-P2WPKH, +12 P2WPKH).
  const account = privateKeyToAccount(PK1);
  const uncompressed = hexToBytes(account.publicKey);
  const compressed = Uint8Array.of(uncompressed[64]! & 1 ? 3 : 2, ...uncompressed.subarray(1, 33));
  const b58 = base58check((b) => sha(b));
  const addresses = {
    p2pkhUncompressed: b58.encode(Uint8Array.of(0x00, ...hash160(uncompressed))),
    p2pkh: b58.encode(Uint8Array.of(0x00, ...hash160(compressed))),
    p2sh: b58.encode(Uint8Array.of(0x05, ...hash160(Uint8Array.of(0x00, 0x14, ...hash160(compressed))))),
    p2wpkh: bech32.encode('bc', [0, ...bech32.toWords(hash160(compressed))]),
    testnetP2wpkh: bech32.encode('tb', [0, ...bech32.toWords(hash160(compressed))]),
  };

  const digestOf = (message: string) => {
    const body = Buffer.from(message, 'utf8');
    if (body.length >= 0xfd) throw new Error('test helper handles short messages only');
    const payload = Buffer.concat([Buffer.from('\x18Bitcoin Signed Message:\n', 'latin1'), Buffer.from([body.length]), body]);
    return sha(sha(payload));
  };

  const signBtc = async (message: string, headerBase: number, privateKey: `0x${string}` = PK1) => {
    const digest = digestOf(message);
    const sig = await viemSign({ hash: `0x${Buffer.from(digest).toString('hex')}`, privateKey });
    const recId = sig.yParity ?? Number(sig.v! - 27n);
    const rs = Buffer.concat([hexToBytes(sig.r.slice(2).padStart(64, '0')), hexToBytes(sig.s.slice(2).padStart(64, '0'))]);
    return Buffer.concat([Buffer.from([headerBase + recId]), rs]).toString('base64');
  };

  it('accepts bitcoinjs-message signatures for every address type, in BIP-137 and Electrum form, short or long', () => {
    const privateKey = Buffer.from(PK1.slice(2), 'hex');
    // Long enough that the length prefix is a 3-byte varint, which the hand-built signer above does not cover.
    const longMessage = MESSAGE.repeat(4);
    expect(Buffer.byteLength(longMessage)).toBeGreaterThanOrEqual(0xfd);
    for (const message of [MESSAGE, longMessage]) {
      const signed = (compressed: boolean, segwitType?: 'p2wpkh' | 'p2sh(p2wpkh)') =>
        bitcoinMessage.sign(message, privateKey, compressed, segwitType ? { segwitType } : {}).toString('base64');
      const cases = [
        { address: addresses.p2pkhUncompressed, signature: signed(false), scheme: 'bip137' },
        { address: addresses.p2pkh, signature: signed(true), scheme: 'bip137' },
        { address: addresses.p2sh, signature: signed(true, 'p2sh(p2wpkh)'), scheme: 'bip137' },
        { address: addresses.p2wpkh, signature: signed(true, 'p2wpkh'), scheme: 'bip137' },
        // Electrum signs segwit addresses with the plain compressed-key header.
        { address: addresses.p2sh, signature: signed(true), scheme: 'electrum' },
        { address: addresses.p2wpkh, signature: signed(true), scheme: 'electrum' },
      ] as const;
      for (const { address, signature, scheme } of cases) {
        // The library agrees the address is this key's, so a failure below is the verifier's. Its `checkSegwitAlways`
        // flag is its Electrum mode.
        expect(bitcoinMessage.verify(message, address, signature, undefined, scheme === 'electrum'), address).toBe(true);
        expect(verifyBitcoinMessage(address, message, signature, scheme), `${address} ${scheme}`).toBe(true);
      }
    }
  });

  it('digest matches the BIP-137 construction', () => {
    expect(Buffer.from(bitcoinMessageDigest(MESSAGE))).toEqual(Buffer.from(digestOf(MESSAGE)));
  });

  it('BIP-137: each header range verifies against its own address type', async () => {
    expect(verifyBitcoinMessage(addresses.p2pkhUncompressed, MESSAGE, await signBtc(MESSAGE, 27))).toBe(true);
    expect(verifyBitcoinMessage(addresses.p2pkh, MESSAGE, await signBtc(MESSAGE, 31))).toBe(true);
    expect(verifyBitcoinMessage(addresses.p2sh, MESSAGE, await signBtc(MESSAGE, 35))).toBe(true);
    expect(verifyBitcoinMessage(addresses.p2wpkh, MESSAGE, await signBtc(MESSAGE, 39))).toBe(true);
    expect(verifyBitcoinMessage(addresses.p2wpkh.toUpperCase(), MESSAGE, await signBtc(MESSAGE, 39), 'bip137')).toBe(true);
    expect(verifyBitcoinMessage(addresses.testnetP2wpkh, MESSAGE, await signBtc(MESSAGE, 39))).toBe(true);
  });

  it('BIP-137: a header for another address type is rejected', async () => {
    expect(verifyBitcoinMessage(addresses.p2wpkh, MESSAGE, await signBtc(MESSAGE, 31))).toBe(false);
    expect(verifyBitcoinMessage(addresses.p2pkh, MESSAGE, await signBtc(MESSAGE, 39))).toBe(false);
    expect(verifyBitcoinMessage(addresses.p2sh, MESSAGE, await signBtc(MESSAGE, 31))).toBe(false);
    expect(verifyBitcoinMessage(addresses.p2pkh, MESSAGE, await signBtc(MESSAGE, 27))).toBe(false);
  });

  it('Electrum: header 27–34 for any address type', async () => {
    const compressedSig = await signBtc(MESSAGE, 31);
    expect(verifyBitcoinMessage(addresses.p2pkh, MESSAGE, compressedSig, 'electrum')).toBe(true);
    expect(verifyBitcoinMessage(addresses.p2sh, MESSAGE, compressedSig, 'electrum')).toBe(true);
    expect(verifyBitcoinMessage(addresses.p2wpkh, MESSAGE, compressedSig, 'electrum')).toBe(true);
    expect(verifyBitcoinMessage(addresses.p2pkhUncompressed, MESSAGE, await signBtc(MESSAGE, 27), 'electrum')).toBe(true);
    // segwit needs the compressed key; BIP-137 segwit headers are not Electrum headers
    expect(verifyBitcoinMessage(addresses.p2wpkh, MESSAGE, await signBtc(MESSAGE, 27), 'electrum')).toBe(false);
    expect(verifyBitcoinMessage(addresses.p2wpkh, MESSAGE, await signBtc(MESSAGE, 39), 'electrum')).toBe(false);
    // and the default scheme does not accept an Electrum-style segwit signature
    expect(verifyBitcoinMessage(addresses.p2wpkh, MESSAGE, compressedSig)).toBe(false);
  });

  it('rejects another key, another message, tampering and unknown schemes', async () => {
    const sig = await signBtc(MESSAGE, 39);
    expect(verifyBitcoinMessage(addresses.p2wpkh, MESSAGE + '.', sig)).toBe(false);
    expect(verifyBitcoinMessage(addresses.p2wpkh, MESSAGE, await signBtc(MESSAGE, 39, PK2))).toBe(false);
    const bytes = Buffer.from(sig, 'base64');
    bytes[20]! ^= 1;
    expect(verifyBitcoinMessage(addresses.p2wpkh, MESSAGE, bytes.toString('base64'))).toBe(false);
    expect(verifyBitcoinMessage(addresses.p2wpkh, MESSAGE, sig, 'other' as never)).toBe(false);
  });

  it('accepts a high-S form of the same signature (legacy wallets)', async () => {
    const sig = Buffer.from(await signBtc(MESSAGE, 31), 'base64');
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt('0x' + sig.subarray(33).toString('hex'));
    const highS = Buffer.from((n - s).toString(16).padStart(64, '0'), 'hex');
    const recId = (sig[0]! - 31) ^ 1;
    const flipped = Buffer.concat([Buffer.from([31 + recId]), sig.subarray(1, 33), highS]).toString('base64');
    expect(verifyBitcoinMessage(addresses.p2pkh, MESSAGE, flipped)).toBe(true);
  });

  it('never throws on malformed input', async () => {
    const sig = await signBtc(MESSAGE, 39);
    for (const bad of ['', '!!!', 'AAAA', Buffer.alloc(65).toString('base64'), Buffer.alloc(64, 1).toString('base64'), Buffer.from([43, ...Buffer.alloc(64, 1)]).toString('base64'), sig.slice(1)]) {
      expect(verifyBitcoinMessage(addresses.p2wpkh, MESSAGE, bad)).toBe(false);
    }
    for (const address of ['', 'bc1qnotvalid', flipLastChar(addresses.p2pkh), flipLastChar(addresses.p2wpkh), 'bc1Q' + addresses.p2wpkh.slice(4)]) {
      expect(verifyBitcoinMessage(address, MESSAGE, sig)).toBe(false);
    }
  });
});

describe('dispatch', () => {
  it('maps chains to families and routes the scheme to Bitcoin only', async () => {
    expect(signatureFamily('BASE_WALLET')).toBe('EVM');
    expect(signatureFamily('ETHEREUM')).toBe('EVM');
    expect(signatureFamily('POLYGON_WALLET')).toBe('EVM');
    expect(signatureFamily('PLASMA_WALLET')).toBe('EVM');
    expect(signatureFamily('SOLANA_WALLET')).toBe('SOLANA');
    expect(signatureFamily('BITCOIN')).toBe('BITCOIN');
    expect(signatureFamily('SPARK_WALLET')).toBeUndefined();
    const account = privateKeyToAccount(PK2);
    const signature = await account.signMessage({ message: MESSAGE });
    expect(verifyWalletSignature({ family: 'EVM', address: account.address, message: MESSAGE, signature, signatureScheme: 'electrum' })).toBe(true);
    expect(verifyWalletSignature({ family: 'BITCOIN', address: account.address, message: MESSAGE, signature })).toBe(false);
  });
});
