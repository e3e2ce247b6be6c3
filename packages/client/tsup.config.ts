import { packageBuild } from '../../tsup.base.js';

// ky is ESM-only: inline it so `require('@railyard/client')` works on Node 20.
export default packageBuild(['index'], ['ky']);
