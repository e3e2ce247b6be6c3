import type { Options } from 'tsup';
import { packageBuild } from '../../tsup.base.js';

// Three entries: the whole contract; `@railyard/contract/wallet-crypto`, the wallet codecs alone (no zod), which the
// browser wallet imports; and `@railyard/contract/routes`, the zod-free route table and generated types the client
// imports. Splitting (CJS too) puts shared code in one chunk, so that the entries hand out the same classes (such as
// `WalletCryptoError`) and `instanceof` holds whichever entry an error came through.
export default <Options>{
  ...packageBuild([]),
  entry: { index: 'src/index.ts', 'wallet-crypto': 'src/wallet-crypto/index.ts', routes: 'src/routes.ts' },
  splitting: true,
};
