// Which signature scheme a wallet proves its ownership with, by chain. Kept apart from the verifiers (signatures.ts),
// which load the elliptic-curve libraries only when a signature is checked.

export type SignatureFamily = 'EVM' | 'SOLANA' | 'BITCOIN';

/** Which verifier a wallet account uses, from its accountType/network name (e.g. BASE_WALLET, SOLANA, BITCOIN_WALLET). */
export const signatureFamily = (chainOrAccountType: string): SignatureFamily | undefined => {
  const name = chainOrAccountType.toUpperCase();
  if (/(^|_)(BASE|ETHEREUM|POLYGON|PLASMA|EVM)(_|$)/.test(name)) return 'EVM';
  if (/(^|_)SOLANA(_|$)/.test(name)) return 'SOLANA';
  if (/(^|_)(BITCOIN|BTC)(_|$)/.test(name)) return 'BITCOIN';
  return undefined;
};
