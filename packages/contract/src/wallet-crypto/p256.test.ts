import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { p256 } from '@noble/curves/nist.js';
import { build } from 'esbuild';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes, randomBytes } from './bytes.js';
import {
  P256_ORDER,
  compressP256PublicKey,
  decompressP256PublicKey,
  derToP1363,
  exportP256PrivateKey,
  exportP256PublicKey,
  generateP256KeyPairHex,
  importP256PrivateKey,
  importP256PublicKey,
  isHighS,
  isP256PrivateKeyHex,
  isP256PublicKeyHex,
  p1363ToDer,
  p256PublicKeyBytes,
  p256PublicKeyFromPrivate,
  randomP256PrivateKeyHex,
  signP256,
  verifyP256,
} from './p256.js';
import { readVectors, type VectorFile } from '../../../../test/support/vectors.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const vectors = (name: VectorFile): Json => readVectors<Json>(name);
const stamps = vectors('stamps.json');
const otp = vectors('otp-bundles.json');
const sessions = vectors('session-key-bundles.json');

/** Every (private, compressed?, uncompressed?) triple the vectors publish. */
const knownKeys: { privateKeyHex: string; compressed?: string; uncompressed?: string }[] = [
  ...stamps.cases.map((c: Json) => ({ privateKeyHex: c.privateKeyHex, compressed: c.publicKeyCompressedHex })),
  ...otp.cases.flatMap((c: Json) => [
    { privateKeyHex: c.targetPrivateKeyHex, uncompressed: c.targetPublicKeyUncompressedHex },
    { privateKeyHex: c.clientTek.privateKeyHex, compressed: c.clientTek.publicKeyCompressedHex, uncompressed: c.clientTek.publicKeyUncompressedHex },
  ]),
  { privateKeyHex: otp.enclaveSigningKey.privateKeyHex, uncompressed: otp.enclaveSigningKey.publicKeyUncompressedHex },
  ...sessions.cases.flatMap((c: Json) => [
    { privateKeyHex: c.clientPrivateKeyHex, uncompressed: c.clientPublicKeyUncompressedHex },
    { privateKeyHex: c.expectedSessionPrivateKeyHex, compressed: c.expectedSessionPublicKeyCompressedHex },
  ]),
];

describe('P-256 keys', () => {
  it('derives every published public key from its private scalar', () => {
    expect(knownKeys.length).toBeGreaterThan(20);
    for (const k of knownKeys) {
      const derived = p256PublicKeyFromPrivate(k.privateKeyHex);
      if (k.uncompressed) expect(derived).toBe(k.uncompressed);
      if (k.compressed) expect(compressP256PublicKey(derived)).toBe(k.compressed);
    }
  });

  it('compresses and decompresses (modular square root) both parities', () => {
    const parities = new Set<string>();
    for (const k of knownKeys) {
      const uncompressed = p256PublicKeyFromPrivate(k.privateKeyHex);
      const compressed = compressP256PublicKey(uncompressed);
      parities.add(compressed.slice(0, 2));
      expect(decompressP256PublicKey(compressed)).toBe(uncompressed);
      expect(compressP256PublicKey(compressed)).toBe(compressed);
      expect(decompressP256PublicKey(uncompressed.toUpperCase())).toBe(uncompressed);
    }
    expect(parities).toEqual(new Set(['02', '03']));
    for (const c of sessions.cases) expect(decompressP256PublicKey(c.encappedPublicCompressedHex)).toBe(c.encappedPublicUncompressedHex);
  });

  it('refuses off-curve points, bad prefixes and lengths', () => {
    const good = otp.enclaveSigningKey.publicKeyUncompressedHex as string;
    const offCurve = good.slice(0, -2) + (good.endsWith('58') ? '59' : '58');
    expect(isP256PublicKeyHex(good)).toBe(true);
    expect(isP256PublicKeyHex(offCurve)).toBe(false);
    expect(isP256PublicKeyHex('05' + good.slice(2))).toBe(false);
    expect(isP256PublicKeyHex(good.slice(0, 64))).toBe(false);
    expect(isP256PublicKeyHex('02' + 'ff'.repeat(32))).toBe(false); // x >= p
    expect(() => decompressP256PublicKey('zz')).toThrow(/hex/);
    // x = 5 has no square root of x^3 - 3x + b on P-256 → not a point
    let noRoot = 0;
    for (let x = 1; x < 40; x++) if (!isP256PublicKeyHex('02' + x.toString(16).padStart(64, '0'))) noRoot++;
    expect(noRoot).toBeGreaterThan(5);
  });

  it('imports a raw scalar into WebCrypto and exports the same keys back', async () => {
    for (const k of knownKeys.slice(0, 6)) {
      const key = await importP256PrivateKey(k.privateKeyHex, 'ECDSA', { extractable: true });
      expect(await exportP256PrivateKey(key)).toBe(k.privateKeyHex);
      expect(await exportP256PublicKey(key)).toBe(p256PublicKeyFromPrivate(k.privateKeyHex));
      const ecdh = await importP256PrivateKey(k.privateKeyHex, 'ECDH');
      expect(ecdh.extractable).toBe(false);
      expect(ecdh.usages).toEqual(['deriveBits']);
      await expect(exportP256PublicKey(ecdh)).rejects.toThrow(/non-extractable/);
      const pub = await importP256PublicKey(compressP256PublicKey(p256PublicKeyFromPrivate(k.privateKeyHex)));
      expect(await exportP256PublicKey(pub, 'compressed')).toBe(compressP256PublicKey(p256PublicKeyFromPrivate(k.privateKeyHex)));
    }
    await expect(importP256PrivateKey('00'.repeat(32))).rejects.toThrow(/range/);
    await expect(importP256PrivateKey('ff'.repeat(32))).rejects.toThrow(/range/);
    await expect(importP256PrivateKey('abc')).rejects.toThrow(/32-byte/);
  });

  it('generates consistent key pairs', async () => {
    const pair = await generateP256KeyPairHex();
    expect(p256PublicKeyFromPrivate(pair.privateKeyHex)).toBe(pair.publicKeyUncompressedHex);
    expect(compressP256PublicKey(pair.publicKeyUncompressedHex)).toBe(pair.publicKeyCompressedHex);
  });
});

describe('ECDSA signatures', () => {
  it('converts every vector signature DER → P1363 → DER unchanged and flags high-S as the vectors do', () => {
    for (const c of stamps.cases) {
      const der = c.decoded.signature as string;
      const raw = derToP1363(der);
      expect(raw.length).toBe(64);
      expect(bytesToHex(p1363ToDer(raw))).toBe(der);
      expect(isHighS(der)).toBe(c.signatureIsHighS);
    }
    for (const c of otp.cases) expect(isHighS(JSON.parse(c.otpEncryptionTargetBundle).dataSignature)).toBe(c.dataSignatureIsHighS);
  });

  it('encodes short r and s minimally and refuses non-DER input', () => {
    const raw = new Uint8Array(64);
    raw[31] = 1;
    raw[32] = 0x80;
    expect(bytesToHex(p1363ToDer(raw))).toBe('3026020101022100' + '80' + '00'.repeat(31));
    expect(bytesToHex(derToP1363(p1363ToDer(raw)))).toBe(bytesToHex(raw));
    const der = stamps.cases[0].decoded.signature as string;
    expect(() => derToP1363(der + '00')).toThrow(/DER/);
    expect(() => derToP1363('31' + der.slice(2))).toThrow(/DER/);
    expect(() => derToP1363(der.slice(0, -2))).toThrow(/DER/);
    expect(() => derToP1363('3006020180020101')).toThrow(/negative/);
    expect(() => derToP1363('300702020001020101')).toThrow(/non-minimal/);
  });

  it('verifies every vector stamp signature (high-S included) from hex and from a CryptoKey', async () => {
    for (const c of stamps.cases) {
      expect(await verifyP256(c.publicKeyCompressedHex, c.payload, c.decoded.signature)).toBe(true);
      expect(await verifyP256(decompressP256PublicKey(c.publicKeyCompressedHex), new TextEncoder().encode(c.payload), hexToBytes(c.decoded.signature))).toBe(true);
      expect(await verifyP256(await importP256PublicKey(c.publicKeyCompressedHex), c.payload, c.decoded.signature)).toBe(true);
      expect(await verifyP256(c.publicKeyCompressedHex, c.payload + ' ', c.decoded.signature)).toBe(false);
    }
  });

  it('signs (DER hex out) so that the signature verifies, with a hex scalar or a CryptoKey; never throws on junk', async () => {
    const k = stamps.cases[2];
    const a = await signP256(k.privateKeyHex, k.payload);
    expect(a).toMatch(/^30[0-9a-f]+$/);
    expect(await verifyP256(k.publicKeyCompressedHex, k.payload, a)).toBe(true);
    const key = await importP256PrivateKey(k.privateKeyHex);
    const b = await signP256(key, new TextEncoder().encode(k.payload));
    expect(await verifyP256(k.publicKeyCompressedHex, k.payload, b)).toBe(true);
    expect(await verifyP256(stamps.cases[0].publicKeyCompressedHex, k.payload, b)).toBe(false);
    expect(await verifyP256('02' + '00'.repeat(32), k.payload, b)).toBe(false);
    expect(await verifyP256(k.publicKeyCompressedHex, k.payload, 'nothex')).toBe(false);
  });
});

const hex32 = (n: bigint) => n.toString(16).padStart(64, '0');

describe('P-256 arithmetic is @noble/curves\' (issue 32: no hand-written, variable-time curve code on private keys)', () => {
  it('derives, compresses and decompresses exactly as noble\'s p256 on random and edge-case scalars', () => {
    const scalars = [1n, 2n, 3n, P256_ORDER - 1n, P256_ORDER - 2n, P256_ORDER / 2n, 2n ** 255n];
    for (let i = 0; i < 100; i++) scalars.push(BigInt('0x' + randomP256PrivateKeyHex()));
    for (const d of scalars) {
      const privateKeyHex = hex32(d);
      const uncompressed = bytesToHex(p256.getPublicKey(hexToBytes(privateKeyHex), false));
      const compressed = bytesToHex(p256.getPublicKey(hexToBytes(privateKeyHex), true));
      expect(p256PublicKeyFromPrivate(privateKeyHex)).toBe(uncompressed);
      expect(p256PublicKeyFromPrivate(privateKeyHex.toUpperCase())).toBe(uncompressed);
      expect(compressP256PublicKey(uncompressed)).toBe(compressed);
      expect(decompressP256PublicKey(compressed)).toBe(uncompressed);
      expect(bytesToHex(p256PublicKeyBytes(compressed))).toBe(uncompressed);
    }
    for (const d of [0n, P256_ORDER, P256_ORDER + 1n, 2n ** 256n - 1n]) {
      expect(isP256PrivateKeyHex(hex32(d))).toBe(false);
      expect(() => p256PublicKeyFromPrivate(hex32(d))).toThrow(/range/);
    }
  });

  it('accepts exactly the SEC1 encodings noble accepts (random x, random y, both prefixes)', () => {
    const nobleAccepts = (hex: string) => {
      try {
        return !p256.Point.fromHex(hex).is0();
      } catch {
        return false;
      }
    };
    let onCurve = 0;
    for (let i = 0; i < 200; i++) {
      const x = bytesToHex(randomBytes(32));
      for (const candidate of [(i % 2 ? '02' : '03') + x, '04' + x + bytesToHex(randomBytes(32))]) {
        expect(isP256PublicKeyHex(candidate)).toBe(nobleAccepts(candidate));
        if (nobleAccepts(candidate)) onCurve++;
      }
    }
    expect(onCurve).toBeGreaterThan(50); // about half of the random x are on the curve
  });

  it('uses the P-256 domain parameters of noble\'s nist.js', () => {
    const { n } = p256.Point.CURVE();
    expect(P256_ORDER).toBe(n);
    // The generator, the curve equation and the field all come in through these two public keys.
    expect(p256PublicKeyFromPrivate(hex32(1n))).toBe(bytesToHex(p256.Point.BASE.toBytes(false)));
    expect(p256PublicKeyFromPrivate(hex32(n - 1n))).toBe(bytesToHex(p256.Point.BASE.negate().toBytes(false)));
  });

  it('no wallet-crypto source multiplies or reduces bigints: the field and point arithmetic is noble\'s', () => {
    // Every bigint product, power or remainder in the module's own sources (tests aside), found by the type checker.
    // Field and point arithmetic cannot do without them; base58, an encoding of public bytes, is the one allowed user.
    const dir = fileURLToPath(new URL('.', import.meta.url));
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(files).toContain('p256.ts');
    // Own sources alone (no imports, no DOM types): a bigint here is one this code made.
    const program = ts.createProgram(
      files.map((f) => dir + f),
      { target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts'], types: [], noResolve: true, noEmit: true },
    );
    const checker = program.getTypeChecker();
    const operators = new Set([
      ts.SyntaxKind.AsteriskToken,
      ts.SyntaxKind.AsteriskAsteriskToken,
      ts.SyntaxKind.PercentToken,
      ts.SyntaxKind.AsteriskEqualsToken,
      ts.SyntaxKind.AsteriskAsteriskEqualsToken,
      ts.SyntaxKind.PercentEqualsToken,
    ]);
    const isBigInt = (node: ts.Node) => (checker.getTypeAtLocation(node).flags & ts.TypeFlags.BigIntLike) !== 0;
    const found = new Map<string, string[]>();
    for (const file of files) {
      const source = program.getSourceFile(dir + file)!;
      const visit = (node: ts.Node): void => {
        if (ts.isBinaryExpression(node) && operators.has(node.operatorToken.kind) && (isBigInt(node.left) || isBigInt(node.right))) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
          found.set(file, [...(found.get(file) ?? []), `${line + 1}: ${node.getText(source)}`]);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(found.get('base58.ts')?.length).toBeGreaterThan(0); // the check does see bigint arithmetic
    found.delete('base58.ts');
    expect(Object.fromEntries(found)).toEqual({});
  });

  it('a browser bundle of wallet-crypto links @noble/curves\' Weierstrass arithmetic', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('./index.ts', import.meta.url))],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const output = Object.values(result.metafile.outputs)[0]!;
    const noble = Object.entries(output.inputs).filter(([path]) => /node_modules\/@noble\/curves\//.test(path));
    const weierstrass = noble.find(([path]) => path.endsWith('@noble/curves/abstract/weierstrass.js'));
    expect(weierstrass?.[1].bytesInOutput ?? 0).toBeGreaterThan(2000);
  });
});
