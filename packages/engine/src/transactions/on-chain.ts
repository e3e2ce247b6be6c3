import { bytesToHex, base58Encode, type OnChainNetwork } from '@railyard/contract';

// What the sandbox reports of a payment's on-chain leg (SPEC §2.9; REFERENCE §4.3): the chain it settled on and a
// transaction hash in that chain's form. Hashes are derived from the transaction id, so they are stable across a
// snapshot and restore, and differ per payment.

/** The chain a wallet account settles on. Lightning settles off-chain: no on-chain transaction. */
export const WALLET_NETWORKS: Readonly<Record<string, OnChainNetwork>> = {
  BASE_WALLET: 'BASE', ETHEREUM_WALLET: 'ETHEREUM', POLYGON_WALLET: 'POLYGON', PLASMA_WALLET: 'PLASMA', SOLANA_WALLET: 'SOLANA',
  SPARK_WALLET: 'SPARK', TRON_WALLET: 'TRON',
};

/** The chain of a real-time crypto funding network (REFERENCE §4.1 `cryptoNetwork`); undefined for Lightning. */
export const fundingNetworkChain = (network: string | undefined): OnChainNetwork | undefined =>
  network === undefined || network === 'LIGHTNING' ? undefined : (network as OnChainNetwork);

/** 32 bytes derived from `seed` (FNV-1a rounds): stable per seed, spread over the whole range. */
function bytesOf(seed: string): Uint8Array {
  const out = new Uint8Array(32);
  for (let round = 0; round < 8; round++) {
    let h = 0x811c9dc5 ^ round;
    for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
    for (let b = 0; b < 4; b++) out[round * 4 + b] = (h >>> (b * 8)) & 0xff;
  }
  return out;
}


/**
 * A transaction hash in the form of `network`: `0x` + 64 hex on EVM chains, a base58 signature on Solana, 64 hex
 * elsewhere (Bitcoin, Tron, Spark). `leg` tells two hashes of one payment apart (the UMA settlement leg, funding).
 */
export function sandboxTransactionHash(network: OnChainNetwork | 'LIGHTNING', paymentId: string, leg = ''): string {
  const bytes = bytesOf(`${paymentId}/${leg}`);
  switch (network) {
    case 'ETHEREUM': case 'BASE': case 'POLYGON': case 'PLASMA':
      return `0x${bytesToHex(bytes)}`;
    case 'SOLANA':
      return base58Encode(new Uint8Array([...bytes, ...bytesOf(`${paymentId}/${leg}/2`)]));
    default:
      return bytesToHex(bytes);
  }
}
