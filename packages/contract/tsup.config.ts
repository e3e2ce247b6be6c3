import type { Options } from 'tsup';
import { packageBuild } from '../../tsup.base.js';

// Two entries: the whole contract, and `@railyard/contract/wallet-crypto`, the wallet codecs alone (no zod), which the
// browser wallet imports. Splitting (CJS too) puts the shared codecs in one chunk, so that both entries hand out the same
// `WalletCryptoError` class and `instanceof` holds whichever entry an error came through.
export default <Options>{
  ...packageBuild([]),
  entry: { index: 'src/index.ts', 'wallet-crypto': 'src/wallet-crypto/index.ts' },
  splitting: true,
};
