import { describe, expect, it } from 'vitest';
import {
  compressP256PublicKey,
  createOtpTargetBundle,
  generateP256KeyPairHex,
  importP256PrivateKey,
  openEncryptedOtpBundle,
  p256PublicKeyFromPrivate,
  sealExportBundle,
  sealSessionSigningKey,
  verifyWalletStamp,
} from '@railyard/contract';
import { DecryptionKey, SessionKey, decryptExportBundle, decryptSessionSigningKey, encryptOtp } from './index.js';
import { readVectors, type VectorFile } from '../../../test/support/vectors.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const vectors = (name: VectorFile): Json => readVectors<Json>(name);

const otp = vectors('otp-bundles.json');
const sessions = vectors('session-key-bundles.json');
const pinned: string = otp.enclaveSigningKey.publicKeyUncompressedHex;
const enclave = { privateKey: otp.enclaveSigningKey.privateKeyHex as string };

describe('encryptOtp (otp-bundles.json)', () => {
  for (const c of otp.cases as Json[]) {
    it(`${c.name}: encrypting the same code and key to the bundle opens to exactly expectedPlaintext`, async () => {
      const encrypted = await encryptOtp({ targetBundle: c.otpEncryptionTargetBundle, otpCode: c.otpCode, tekPublicKey: c.publicKeySent, pinnedEnclaveKey: pinned });
      expect(Object.keys(JSON.parse(encrypted))).toEqual(['encappedPublic', 'ciphertext']);
      const opened = await openEncryptedOtpBundle(encrypted, c.targetPrivateKeyHex);
      expect(opened.plaintext).toBe(c.expectedPlaintext);
      expect(opened.publicKeyCompressedHex).toBe(c.clientTek.publicKeyCompressedHex);
    });
  }

  for (const r of otp.mustReject as Json[]) {
    it(`mustReject ${r.name}: does not open with the target key of ${r.appliesTo}`, async () => {
      const c = otp.cases.find((x: Json) => x.name === r.appliesTo);
      await expect(openEncryptedOtpBundle(r.encryptedOtpBundle, c.targetPrivateKeyHex)).rejects.toMatchObject({ code: 'DECRYPTION_FAILED' });
    });
  }

  it('accepts a SessionKey as the TEK (sent uncompressed) and the TEK then stamps the session payload', async () => {
    const c = otp.cases[0];
    const tek = await SessionKey.fromPrivateKeyHex(c.clientTek.privateKeyHex);
    const encrypted = await encryptOtp({ targetBundle: c.otpEncryptionTargetBundle, otpCode: c.otpCode, tekPublicKey: tek, pinnedEnclaveKey: pinned });
    expect((await openEncryptedOtpBundle(encrypted, c.targetPrivateKeyHex)).plaintext).toBe(c.expectedPlaintext);
    const payload = '{"type":"ACTIVITY_TYPE_OTP_LOGIN"}';
    expect((await verifyWalletStamp(await tek.stamp(payload), payload, c.clientTek.publicKeyCompressedHex)).valid).toBe(true);
  });

  it('refuses a bundle from an unpinned signer with a clear error, character for character', async () => {
    const c = otp.cases[0];
    for (const wrongPin of [pinned.toUpperCase(), compressP256PublicKey(pinned), (await generateP256KeyPairHex()).publicKeyUncompressedHex, '']) {
      await expect(encryptOtp({ targetBundle: c.otpEncryptionTargetBundle, otpCode: '000000', tekPublicKey: c.publicKeySent, pinnedEnclaveKey: wrongPin })).rejects.toMatchObject({
        code: 'UNTRUSTED_SIGNER',
        message: expect.stringMatching(/pinned/),
      });
    }
    const foreign = await generateP256KeyPairHex();
    const foreignBundle = await createOtpTargetBundle({ targetPublicKeyHex: c.targetPublicKeyUncompressedHex, signer: { privateKey: foreign.privateKeyHex } });
    await expect(encryptOtp({ targetBundle: foreignBundle, otpCode: '000000', tekPublicKey: c.publicKeySent, pinnedEnclaveKey: pinned })).rejects.toMatchObject({ code: 'UNTRUSTED_SIGNER' });
  });

  it('refuses a bundle whose signature does not verify, and junk', async () => {
    const c = otp.cases[0];
    const fields = JSON.parse(c.otpEncryptionTargetBundle);
    const other = JSON.parse(otp.cases[1].otpEncryptionTargetBundle);
    const swapped = JSON.stringify({ ...fields, data: other.data });
    await expect(encryptOtp({ targetBundle: swapped, otpCode: '000000', tekPublicKey: c.publicKeySent, pinnedEnclaveKey: pinned })).rejects.toMatchObject({ code: 'SIGNATURE_INVALID' });
    await expect(encryptOtp({ targetBundle: '{', otpCode: '000000', tekPublicKey: c.publicKeySent, pinnedEnclaveKey: pinned })).rejects.toMatchObject({ code: 'MALFORMED' });
  });
});

describe('decryptSessionSigningKey (session-key-bundles.json)', () => {
  for (const c of sessions.cases as Json[]) {
    it(`${c.name}: decrypts to expectedSessionPrivateKeyHex with a hex key, a DecryptionKey and a CryptoKey pair`, async () => {
      expect(await decryptSessionSigningKey(c.encryptedSessionSigningKey, c.clientPrivateKeyHex)).toBe(c.expectedSessionPrivateKeyHex);
      const key = await DecryptionKey.fromPrivateKeyHex(c.clientPrivateKeyHex);
      expect(key.publicKeyUncompressedHex).toBe(c.clientPublicKeyUncompressedHex);
      expect(await decryptSessionSigningKey(c.encryptedSessionSigningKey, key)).toBe(c.expectedSessionPrivateKeyHex);
      const extractable = await importP256PrivateKey(c.clientPrivateKeyHex, 'ECDH', { extractable: true });
      expect(await decryptSessionSigningKey(c.encryptedSessionSigningKey, extractable)).toBe(c.expectedSessionPrivateKeyHex);
      const session = await SessionKey.fromPrivateKeyHex(c.expectedSessionPrivateKeyHex);
      expect(session.publicKeyCompressedHex).toBe(c.expectedSessionPublicKeyCompressedHex);
    });
  }

  it('mustReject: bad-checksum fails on the checksum, sealed-to-another-client-key on authentication', async () => {
    const codes: Record<string, string> = { 'bad-checksum': 'CHECKSUM', 'sealed-to-another-client-key': 'DECRYPTION_FAILED' };
    expect(sessions.mustReject).toHaveLength(2);
    for (const r of sessions.mustReject as Json[]) {
      const c = sessions.cases.find((x: Json) => x.name === r.appliesTo);
      await expect(decryptSessionSigningKey(r.encryptedSessionSigningKey, c.clientPrivateKeyHex)).rejects.toMatchObject({ code: codes[r.name] });
    }
  });

  it('legacy flow end to end: a generated DecryptionKey receives a sealed session key that then stamps', async () => {
    const client = await DecryptionKey.generate();
    const server = await generateP256KeyPairHex();
    const bundle = await sealSessionSigningKey(client.publicKeyUncompressedHex, server.privateKeyHex);
    const sessionKeyHex = await decryptSessionSigningKey(bundle, client);
    expect(sessionKeyHex).toBe(server.privateKeyHex);
    const session = await SessionKey.fromPrivateKeyHex(sessionKeyHex);
    const stamp = await session.stamp('payload');
    expect((await verifyWalletStamp(stamp, 'payload', server.publicKeyCompressedHex)).valid).toBe(true);
    const stranger = await DecryptionKey.generate();
    await expect(decryptSessionSigningKey(bundle, stranger)).rejects.toMatchObject({ code: 'DECRYPTION_FAILED' });
  });
});

describe('decryptExportBundle', () => {
  const mnemonic = 'legal winner thank year wave sausage worth useful legal winner thank yellow';

  it('decrypts an export sealed to a fresh DecryptionKey with the pinned enclave key; refuses other pins and keys', async () => {
    const exportKey = await DecryptionKey.generate();
    const bundle = await sealExportBundle({ clientPublicKeyHex: exportKey.publicKeyUncompressedHex, mnemonic, organizationId: 'org-1', signer: enclave });
    expect(await decryptExportBundle(bundle, exportKey, pinned)).toBe(mnemonic);
    expect(await decryptExportBundle(bundle, exportKey, pinned, { organizationId: 'org-1' })).toBe(mnemonic);
    await expect(decryptExportBundle(bundle, exportKey, pinned, { organizationId: 'org-2' })).rejects.toMatchObject({ code: 'MALFORMED' });
    await expect(decryptExportBundle(bundle, exportKey, (await generateP256KeyPairHex()).publicKeyUncompressedHex)).rejects.toMatchObject({ code: 'UNTRUSTED_SIGNER' });
    await expect(decryptExportBundle(bundle, await DecryptionKey.generate(), pinned)).rejects.toMatchObject({ code: 'DECRYPTION_FAILED' });
    const hexKey = await generateP256KeyPairHex();
    const second = await sealExportBundle({ clientPublicKeyHex: hexKey.publicKeyUncompressedHex, mnemonic, organizationId: 'org-1', signer: enclave });
    expect(await decryptExportBundle(second, hexKey.privateKeyHex, pinned)).toBe(mnemonic);
    expect(p256PublicKeyFromPrivate(hexKey.privateKeyHex)).toBe(hexKey.publicKeyUncompressedHex);
  });
});
