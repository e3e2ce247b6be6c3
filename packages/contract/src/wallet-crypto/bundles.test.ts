import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from './bytes.js';
import {
  createEnclaveBundle,
  createOtpTargetBundle,
  openEncryptedOtpBundle,
  openExportBundle,
  openSessionSigningKey,
  parseEnclaveBundle,
  sealEncryptedOtpBundle,
  sealExportBundle,
  sealSessionSigningKey,
  verifyEnclaveBundle,
  verifyOtpTargetBundle,
} from './bundles.js';
import {
  compressP256PublicKey,
  generateP256KeyPairHex,
  importP256PrivateKey,
  isHighS,
  p256PublicKeyFromPrivate,
  signP256,
} from './p256.js';
import { readVectors, type VectorFile } from '../../../../test/support/vectors.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const vectors = (name: VectorFile): Json => readVectors<Json>(name);
const otp = vectors('otp-bundles.json');
const sessions = vectors('session-key-bundles.json');
const pinned = otp.enclaveSigningKey.publicKeyUncompressedHex as string;
const enclave = { privateKey: otp.enclaveSigningKey.privateKeyHex as string };
const rejectsWith = async (promise: Promise<unknown>, code: string) => expect(promise).rejects.toMatchObject({ name: 'WalletCryptoError', code });

describe('OTP target bundle (otp-bundles.json)', () => {
  for (const c of otp.cases as Json[]) {
    it(`${c.name}: verifies against the pinned enclave key (high-S: ${c.dataSignatureIsHighS}) and yields targetPublic`, async () => {
      const verified = await verifyOtpTargetBundle(c.otpEncryptionTargetBundle, pinned);
      expect(verified.targetPublicKeyHex).toBe(c.targetPublicKeyUncompressedHex);
      expect(verified.bundle.dataText).toBe(c.targetDataJson);
      expect(verified.bundle.data).toBe(bytesToHex(new TextEncoder().encode(c.targetDataJson)));
      expect(isHighS(verified.bundle.dataSignature)).toBe(c.dataSignatureIsHighS);
      expect(p256PublicKeyFromPrivate(c.targetPrivateKeyHex)).toBe(c.targetPublicKeyUncompressedHex);
    });
  }

  it('refuses a bundle whose enclaveQuorumPublic is not the pinned key, character for character', async () => {
    const c = otp.cases[0];
    await rejectsWith(verifyOtpTargetBundle(c.otpEncryptionTargetBundle, pinned.toUpperCase()), 'UNTRUSTED_SIGNER');
    await rejectsWith(verifyOtpTargetBundle(c.otpEncryptionTargetBundle, compressP256PublicKey(pinned)), 'UNTRUSTED_SIGNER');
    const other = await generateP256KeyPairHex();
    await rejectsWith(verifyOtpTargetBundle(c.otpEncryptionTargetBundle, other.publicKeyUncompressedHex), 'UNTRUSTED_SIGNER');
    // a bundle signed by another key that names that key is refused as well
    const foreign = await createOtpTargetBundle({ targetPublicKeyHex: c.targetPublicKeyUncompressedHex, signer: { privateKey: other.privateKeyHex } });
    await rejectsWith(verifyOtpTargetBundle(foreign, pinned), 'UNTRUSTED_SIGNER');
  });

  it('refuses changed data, a signature from another key naming the pinned key, bad version and junk', async () => {
    const c = otp.cases[0];
    const fields = parseEnclaveBundle(c.otpEncryptionTargetBundle);
    const otherTarget = otp.cases[1].targetPublicKeyUncompressedHex;
    const changed = JSON.stringify({ ...fields, data: bytesToHex(new TextEncoder().encode(c.targetDataJson.replace(c.targetPublicKeyUncompressedHex, otherTarget))) });
    await rejectsWith(verifyOtpTargetBundle(changed, pinned), 'SIGNATURE_INVALID');
    const other = await generateP256KeyPairHex();
    const forged = JSON.stringify({ ...fields, dataSignature: await signP256(other.privateKeyHex, hexToBytes(fields.data)) });
    await rejectsWith(verifyOtpTargetBundle(forged, pinned), 'SIGNATURE_INVALID');
    await rejectsWith(verifyOtpTargetBundle(JSON.stringify({ ...fields, dataSignature: '' }), pinned), 'SIGNATURE_INVALID');
    await rejectsWith(verifyOtpTargetBundle(JSON.stringify({ ...fields, version: 'v2.0.0' }), pinned), 'MALFORMED');
    await rejectsWith(verifyOtpTargetBundle('not json', pinned), 'MALFORMED');
    await rejectsWith(verifyOtpTargetBundle(JSON.stringify({ version: 'v1.0.0' }), pinned), 'MALFORMED');
  });

  it('mints bundles in the reference shape that verify (round trip)', async () => {
    const target = await generateP256KeyPairHex();
    const bundle = await createOtpTargetBundle({ targetPublicKeyHex: target.publicKeyCompressedHex, signer: enclave, organizationId: 'org-1', userId: 'user-1' });
    expect(Object.keys(JSON.parse(bundle))).toEqual(['version', 'data', 'dataSignature', 'enclaveQuorumPublic']);
    const verified = await verifyOtpTargetBundle(bundle, pinned);
    expect(verified.targetPublicKeyHex).toBe(target.publicKeyUncompressedHex);
    expect(verified.bundle.dataJson).toEqual({ targetPublic: target.publicKeyUncompressedHex, organizationId: 'org-1', userId: 'user-1' });
    expect(JSON.parse(bundle).enclaveQuorumPublic).toBe(pinned);
    // a CryptoKey signer with its public key works too
    const key = await importP256PrivateKey(enclave.privateKey);
    const viaKey = await createOtpTargetBundle({ targetPublicKeyHex: target.publicKeyUncompressedHex, signer: { privateKey: key, publicKeyHex: pinned } });
    expect((await verifyOtpTargetBundle(viaKey, pinned)).targetPublicKeyHex).toBe(target.publicKeyUncompressedHex);
    await rejectsWith(createEnclaveBundle('{}', { privateKey: key }), 'MALFORMED');
  });
});

describe('encryptedOtpBundle (otp-bundles.json)', () => {
  for (const c of otp.cases as Json[]) {
    it(`${c.name}: opens with targetPrivateKeyHex to exactly expectedPlaintext (${c.publicKeySent.length === 66 ? 'compressed' : 'uncompressed'} public_key)`, async () => {
      const opened = await openEncryptedOtpBundle(c.encryptedOtpBundle, c.targetPrivateKeyHex);
      expect(opened.plaintext).toBe(c.expectedPlaintext);
      expect(opened.otpCode).toBe(c.otpCode);
      expect(opened.publicKey).toBe(c.publicKeySent);
      expect(opened.publicKeyCompressedHex).toBe(c.clientTek.publicKeyCompressedHex);
      // with an ECDH CryptoKey and the known target public key
      const key = await importP256PrivateKey(c.targetPrivateKeyHex, 'ECDH');
      expect((await openEncryptedOtpBundle(c.encryptedOtpBundle, key, { targetPublicKeyHex: c.targetPublicKeyUncompressedHex })).plaintext).toBe(c.expectedPlaintext);
    });

    it(`${c.name}: client code encrypting to the bundle with the same code and key produces something that opens to expectedPlaintext`, async () => {
      const { targetPublicKeyHex } = await verifyOtpTargetBundle(c.otpEncryptionTargetBundle, pinned);
      const sealed = await sealEncryptedOtpBundle({ targetPublicKeyHex, otpCode: c.otpCode, publicKeyHex: c.publicKeySent });
      expect(Object.keys(JSON.parse(sealed))).toEqual(['encappedPublic', 'ciphertext']);
      expect(JSON.parse(sealed).encappedPublic).toMatch(/^04[0-9a-f]{128}$/);
      expect((await openEncryptedOtpBundle(sealed, c.targetPrivateKeyHex)).plaintext).toBe(c.expectedPlaintext);
    });
  }

  for (const r of otp.mustReject as Json[]) {
    it(`mustReject ${r.name}: fails to open with the target key of ${r.appliesTo}`, async () => {
      const c = otp.cases.find((x: Json) => x.name === r.appliesTo);
      await rejectsWith(openEncryptedOtpBundle(r.encryptedOtpBundle, c.targetPrivateKeyHex), 'DECRYPTION_FAILED');
    });
  }

  it('refuses malformed bundles and plaintexts', async () => {
    const c = otp.cases[0];
    await rejectsWith(openEncryptedOtpBundle('nope', c.targetPrivateKeyHex), 'MALFORMED');
    await rejectsWith(openEncryptedOtpBundle(JSON.stringify({ encappedPublic: 'zz', ciphertext: '00' }), c.targetPrivateKeyHex), 'MALFORMED');
    await rejectsWith(openEncryptedOtpBundle(JSON.stringify({ ciphertext: '00' }), c.targetPrivateKeyHex), 'MALFORMED');
    await rejectsWith(sealEncryptedOtpBundle({ targetPublicKeyHex: c.targetPublicKeyUncompressedHex, otpCode: '000000', publicKeyHex: 'abcd' }), 'MALFORMED');
    await rejectsWith(sealEncryptedOtpBundle({ targetPublicKeyHex: c.targetPublicKeyUncompressedHex, otpCode: '', publicKeyHex: c.publicKeySent }), 'MALFORMED');
  });
});

describe('encryptedSessionSigningKey (session-key-bundles.json)', () => {
  for (const c of sessions.cases as Json[]) {
    it(`${c.name}: opens with clientPrivateKeyHex to expectedSessionPrivateKeyHex`, async () => {
      const key = await openSessionSigningKey(c.encryptedSessionSigningKey, c.clientPrivateKeyHex);
      expect(key).toBe(c.expectedSessionPrivateKeyHex);
      expect(compressP256PublicKey(p256PublicKeyFromPrivate(key))).toBe(c.expectedSessionPublicKeyCompressedHex);
      const ecdh = await importP256PrivateKey(c.clientPrivateKeyHex, 'ECDH');
      expect(await openSessionSigningKey(c.encryptedSessionSigningKey, ecdh, { clientPublicKeyHex: c.clientPublicKeyUncompressedHex })).toBe(key);
    });
  }

  it('mustReject bad-checksum fails on the checksum', async () => {
    const r = sessions.mustReject.find((x: Json) => x.name === 'bad-checksum');
    const c = sessions.cases.find((x: Json) => x.name === r.appliesTo);
    await rejectsWith(openSessionSigningKey(r.encryptedSessionSigningKey, c.clientPrivateKeyHex), 'CHECKSUM');
  });

  it('mustReject sealed-to-another-client-key fails on authentication', async () => {
    const r = sessions.mustReject.find((x: Json) => x.name === 'sealed-to-another-client-key');
    const c = sessions.cases.find((x: Json) => x.name === r.appliesTo);
    await rejectsWith(openSessionSigningKey(r.encryptedSessionSigningKey, c.clientPrivateKeyHex), 'DECRYPTION_FAILED');
  });

  it('covers every mustReject entry', () => expect(sessions.mustReject.map((r: Json) => r.name).sort()).toEqual(['bad-checksum', 'sealed-to-another-client-key']));

  it('seals a session key that opens the reference way (round trip, either client key form)', async () => {
    const client = await generateP256KeyPairHex();
    const session = await generateP256KeyPairHex();
    for (const clientKey of [client.publicKeyUncompressedHex, client.publicKeyCompressedHex]) {
      const bundle = await sealSessionSigningKey(clientKey, session.privateKeyHex);
      expect(bundle).toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/);
      expect(await openSessionSigningKey(bundle, client.privateKeyHex)).toBe(session.privateKeyHex);
      await rejectsWith(openSessionSigningKey(bundle, session.privateKeyHex), 'DECRYPTION_FAILED');
    }
    await rejectsWith(sealSessionSigningKey(client.publicKeyUncompressedHex, 'abcd'), 'MALFORMED');
  });
});

describe('export bundle (encryptedWalletCredentials)', () => {
  const mnemonic = 'abandon ability able about above absent absorb abstract absurd abuse access accident';

  it('seals a signed bundle in the reference shape that opens with the pinned key (round trip)', async () => {
    const client = await generateP256KeyPairHex();
    const bundle = await sealExportBundle({ clientPublicKeyHex: client.publicKeyUncompressedHex, mnemonic, organizationId: 'org-9', signer: enclave });
    const fields = JSON.parse(bundle);
    expect(Object.keys(fields)).toEqual(['version', 'data', 'dataSignature', 'enclaveQuorumPublic']);
    expect(fields.dataSignature).not.toBe('');
    const data = JSON.parse(new TextDecoder().decode(hexToBytes(fields.data)));
    expect(Object.keys(data)).toEqual(['encappedPublic', 'ciphertext', 'organizationId']);
    expect(data.encappedPublic).toMatch(/^04[0-9a-f]{128}$/);
    expect((await verifyEnclaveBundle(bundle, pinned)).dataJson.organizationId).toBe('org-9');
    expect(await openExportBundle(bundle, client.privateKeyHex, { pinnedEnclaveKeyHex: pinned })).toEqual({ mnemonic, organizationId: 'org-9' });
    expect((await openExportBundle(bundle, client.privateKeyHex, { pinnedEnclaveKeyHex: pinned, organizationId: 'org-9' })).mnemonic).toBe(mnemonic);
    const ecdh = await importP256PrivateKey(client.privateKeyHex, 'ECDH');
    expect((await openExportBundle(bundle, ecdh, { pinnedEnclaveKeyHex: pinned, clientPublicKeyHex: client.publicKeyUncompressedHex })).mnemonic).toBe(mnemonic);
  });

  it('refuses an unpinned signer, a wrong organization, a foreign client key and a tampered payload', async () => {
    const client = await generateP256KeyPairHex();
    const other = await generateP256KeyPairHex();
    const bundle = await sealExportBundle({ clientPublicKeyHex: client.publicKeyUncompressedHex, mnemonic, organizationId: 'org-9', signer: enclave });
    await rejectsWith(openExportBundle(bundle, client.privateKeyHex, { pinnedEnclaveKeyHex: other.publicKeyUncompressedHex }), 'UNTRUSTED_SIGNER');
    await rejectsWith(openExportBundle(bundle, client.privateKeyHex, { pinnedEnclaveKeyHex: pinned, organizationId: 'org-1' }), 'MALFORMED');
    await rejectsWith(openExportBundle(bundle, other.privateKeyHex, { pinnedEnclaveKeyHex: pinned }), 'DECRYPTION_FAILED');
    const fields = JSON.parse(bundle);
    const data = JSON.parse(new TextDecoder().decode(hexToBytes(fields.data)));
    const tampered = JSON.stringify({ ...fields, data: bytesToHex(new TextEncoder().encode(JSON.stringify({ ...data, organizationId: 'org-x' }))) });
    await rejectsWith(openExportBundle(tampered, client.privateKeyHex, { pinnedEnclaveKeyHex: pinned }), 'SIGNATURE_INVALID');
    await rejectsWith(openExportBundle(JSON.stringify({ ...fields, dataSignature: '', enclaveQuorumPublic: '' }), client.privateKeyHex, { pinnedEnclaveKeyHex: pinned }), 'UNTRUSTED_SIGNER');
  });
});
