import { authEndpoints as e, controlPlaneEndpoints } from '@railyard/contract';
import { bind } from '../http/app.js';
import { signedAnswer, signedRequestOf } from '../http/signed.js';
import { challengeCredential, createCredential, deleteCredential, listCredentials, verifyCredential } from './credentials.js';
import { SANDBOX_ENCLAVE_PUBLIC_KEY_HEX } from './enclave.js';
import { exportWallet, listSessions, refreshSession, revokeSession, updateWallet } from './wallet-actions.js';

/** HTTP bindings of embedded-wallet authentication (SPEC §4.2), and the enclave key on the control plane. */
export const authRoutes = [
  bind(e.createAuthCredential, ({ tenant, body, request, signable }) => signedAnswer(createCredential(tenant, body, signedRequestOf(request, signable)))),
  bind(e.listAuthCredentials, ({ tenant, query }) => listCredentials(tenant, query.accountId)),
  bind(e.challengeAuthCredential, ({ tenant, params, body }) => challengeCredential(tenant, params.credentialId, body)),
  bind(e.verifyAuthCredential, ({ tenant, params, body, request, signable }) => signedAnswer(verifyCredential(tenant, params.credentialId, body, signedRequestOf(request, signable)))),
  bind(e.deleteAuthCredential, ({ tenant, params, request, signable }) => signedAnswer(deleteCredential(tenant, params.credentialId, signedRequestOf(request, signable)))),
  bind(e.listAuthSessions, ({ tenant, query }) => listSessions(tenant, query.accountId)),
  bind(e.deleteAuthSession, ({ tenant, params, request, signable }) => signedAnswer(revokeSession(tenant, params.sessionId, signedRequestOf(request, signable)))),
  bind(e.refreshAuthSession, ({ tenant, params, body, request, signable }) => signedAnswer(refreshSession(tenant, params.sessionId, body, signedRequestOf(request, signable)))),
  bind(e.exportWallet, ({ tenant, params, body, request, signable }) => signedAnswer(exportWallet(tenant, params.accountId, body, signedRequestOf(request, signable)))),
  bind(e.updateInternalAccount, ({ tenant, params, body, request, signable }) => signedAnswer(updateWallet(tenant, params.accountId, body, signedRequestOf(request, signable)))),
  bind(controlPlaneEndpoints.getSandboxEnclaveKey, () => ({ publicKeyHex: SANDBOX_ENCLAVE_PUBLIC_KEY_HEX })),
];
