import { authEndpoints as e, controlPlaneEndpoints } from '@railyard/contract';
import { bind } from '../http/app.js';
import { challengeCredential, createCredential, deleteCredential, listCredentials, verifyCredential } from './credentials.js';
import { SANDBOX_ENCLAVE_PUBLIC_KEY_HEX } from './enclave.js';
import { exportWallet, listSessions, refreshSession, revokeSession, updateWallet } from './wallet-actions.js';

/** HTTP bindings of embedded-wallet authentication (SPEC §4.2), and the enclave key on the control plane. */
export const authRoutes = [
  bind(e.createAuthCredential, ({ tenant, body, request, signable }) => createCredential(tenant, body, request, signable)),
  bind(e.listAuthCredentials, ({ tenant, query }) => listCredentials(tenant, query.accountId)),
  bind(e.challengeAuthCredential, ({ tenant, params, body }) => challengeCredential(tenant, params.credentialId, body)),
  bind(e.verifyAuthCredential, ({ tenant, params, body, request, signable }) => verifyCredential(tenant, params.credentialId, body, request, signable)),
  bind(e.deleteAuthCredential, ({ tenant, params, request, signable }) => deleteCredential(tenant, params.credentialId, request, signable)),
  bind(e.listAuthSessions, ({ tenant, query }) => listSessions(tenant, query.accountId)),
  bind(e.deleteAuthSession, ({ tenant, params, request, signable }) => revokeSession(tenant, params.sessionId, request, signable)),
  bind(e.refreshAuthSession, ({ tenant, params, body, request, signable }) => refreshSession(tenant, params.sessionId, body, request, signable)),
  bind(e.exportWallet, ({ tenant, params, body, request, signable }) => exportWallet(tenant, params.accountId, body, request, signable)),
  bind(e.updateInternalAccount, ({ tenant, params, body, request, signable }) => updateWallet(tenant, params.accountId, body, request, signable)),
  bind(controlPlaneEndpoints.getSandboxEnclaveKey, () => ({ publicKeyHex: SANDBOX_ENCLAVE_PUBLIC_KEY_HEX })),
];
