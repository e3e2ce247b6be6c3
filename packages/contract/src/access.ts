import type { AgentPermission } from './agents.js';
import type { Endpoint } from './endpoint.js';
import type { ApiTokenPermission } from './tokens.js';

// Who may call each operation (REFERENCE §19, §20; DESIGN §3), as one table that reads like the access model: every
// operation of the API has a row, and each row cites where its rule comes from. The engine enforces it, the docs print
// it (docs/access.md), and test/reliability/access-matrix.test.ts tries every cell of it against the running sandbox.

/**
 * How an operation is authorized:
 * - `basic`: the platform's Basic credentials (which may do everything) or an API token holding every permission in
 *   `token`;
 * - `agent`: an agent's Bearer access token (AgentAuth), acting as its customer; `agent` names the policy permission it
 *   needs (null: none is named, as for reads);
 * - `link`: no credentials, a single-use token in the path (hosted pages a customer opens from a link);
 * - `none`: no credentials at all (the health check; a device-code redeem, where the code authorizes once).
 */
export type AccessRule =
  | { readonly auth: 'basic'; readonly token: readonly ApiTokenPermission[]; readonly cite: string }
  | { readonly auth: 'agent'; readonly agent: AgentPermission | null; readonly cite: string }
  | { readonly auth: 'link' | 'none'; readonly cite: string };

/** The access rule of every operation, by operationId. */
export const ACCESS: Readonly<Record<string, AccessRule>> = {
  createCustomer: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  listCustomers: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  getEndUserTerms: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  getCustomer: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  updateCustomer: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  deleteCustomer: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  listCustomerInternalAccounts: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  fundSandboxInternalAccount: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  listPlatformInternalAccounts: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  getConfig: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  updateConfig: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  getSandboxHealth: { auth: 'none', cite: 'DESIGN §3: the health check reads no platform data' },
  getSandboxClock: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  advanceSandboxClock: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  resetSandbox: { auth: 'basic', token: ['MANAGE'], cite: "DESIGN §3 control plane: erases the platform's state (MANAGE, REFERENCE §19)" },
  getSandboxSnapshot: { auth: 'basic', token: ['VIEW', 'MANAGE'], cite: "DESIGN §3 control plane: a snapshot reads every record (VIEW, REFERENCE §19) and the platform's configuration and tokens (MANAGE)" },
  restoreSandbox: { auth: 'basic', token: ['MANAGE', 'TRANSACT'], cite: 'DESIGN §3 control plane: a restore replaces configuration and tokens (MANAGE, REFERENCE §19) and every balance (TRANSACT); it may grant only what the caller holds' },
  listSandboxEvents: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  createSandboxPlatform: { auth: 'basic', token: ['MANAGE'], cite: 'DESIGN §3 control plane: makes new credentials (MANAGE, REFERENCE §19)' },
  setSandboxLimits: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  getSandboxWebhookKey: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  verifySandboxWebhookSignature: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  getSandboxEnclaveKey: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  setSandboxWalletProcessing: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  getOpenApiDocument: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  uploadDocument: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  listDocuments: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  getDocument: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  replaceDocument: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  deleteDocument: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  createVerification: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  listVerifications: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  getVerification: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  decideSandboxVerification: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  createBeneficialOwner: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  listBeneficialOwners: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  getBeneficialOwner: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  updateBeneficialOwner: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  sendEmailVerificationCode: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  confirmEmailVerification: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  sendPhoneVerificationCode: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  confirmPhoneVerification: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  createKycLink: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  getHostedKycPage: { auth: 'link', cite: 'REFERENCE §15.4, SPEC §4.3: the single-use token in the path authorizes; no credentials' },
  uploadHostedKycDocument: { auth: 'link', cite: 'REFERENCE §15.4, SPEC §4.3: the single-use token in the path authorizes; no credentials' },
  addHostedKycOwner: { auth: 'link', cite: 'REFERENCE §15.4, SPEC §4.3: the single-use token in the path authorizes; no credentials' },
  completeHostedKyc: { auth: 'link', cite: 'REFERENCE §15.4, SPEC §4.3: the single-use token in the path authorizes; no credentials' },
  approveHostedKyc: { auth: 'link', cite: 'REFERENCE §15.4, SPEC §4.3: the single-use token in the path authorizes; no credentials' },
  rejectHostedKyc: { auth: 'link', cite: 'REFERENCE §15.4, SPEC §4.3: the single-use token in the path authorizes; no credentials' },
  createExternalAccount: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  listExternalAccounts: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  getExternalAccount: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  deleteExternalAccount: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  createPlatformExternalAccount: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  listPlatformExternalAccounts: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  getPlatformExternalAccount: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  deletePlatformExternalAccount: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  createCustomerExternalAccountChallenge: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  createPlatformExternalAccountChallenge: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  verifyCustomerExternalAccountOwnership: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  verifyPlatformExternalAccountOwnership: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  trustExternalAccount: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  confirmTrustExternalAccount: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  untrustExternalAccount: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  confirmUntrustExternalAccount: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  createQuote: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: quotes and their execution need TRANSACT; VIEW alone is 403' },
  getQuote: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  executeQuote: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: quotes and their execution need TRANSACT; VIEW alone is 403' },
  authorizeQuote: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  resendQuoteAuthorization: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  listTransactions: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  getTransaction: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  approveTransaction: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  rejectTransaction: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  cancelTransaction: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  confirmTransaction: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  listExchangeRates: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  sandboxSend: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  transferIn: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  transferOut: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  lookupUmaReceiver: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  sandboxUmaReceive: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  startScaLogin: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  completeScaLogin: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  sandboxWebhookTest: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  createAuthCredential: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  listAuthCredentials: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  challengeAuthCredential: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  verifyAuthCredential: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  deleteAuthCredential: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  listAuthSessions: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  deleteAuthSession: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  refreshAuthSession: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  exportWallet: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  updateInternalAccount: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  createCard: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  listCards: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  getCard: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  updateCard: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  revealCard: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  simulateCardAuthorization: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  simulateCardCreditAuthorization: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  simulateCardFinancialAuthorization: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  simulateCardFinancialCreditAuthorization: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  simulateCardCreditAuthorizationAdvice: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  simulateCardBalanceInquiry: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  simulateCardAuthorizationAdvice: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  simulateCardClearing: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  simulateCardReturn: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  simulateCardReturnReversal: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  getCardRevealPage: { auth: 'link', cite: 'REFERENCE §15.4, SPEC §4.3: the single-use token in the path authorizes; no credentials' },
  getCardSimulation: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  linkStablecoinProviderAccount: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  listStablecoinProviderAccounts: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  getStablecoinProviderAccount: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  registerStablecoin: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  listStablecoins: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  getStablecoin: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  requestStablecoinEnablement: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  createStablecoinMint: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  createStablecoinBurn: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  listStablecoinOperations: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  getStablecoinOperation: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  setStablecoinOperationsStatus: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  setStablecoinProviderAccountStatus: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  setStablecoinProviderAvailability: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  fundStablecoinOperation: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §19: TRANSACT sends payments; this moves money' },
  createToken: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages tokens; a token grants only permissions its maker holds' },
  listTokens: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  getTokenById: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  deleteTokenById: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  createInvitation: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  getInvitation: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  claimInvitation: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  cancelInvitation: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  createAgent: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19, §20.1: MANAGE; an agent gets only what its maker holds (VIEW, and TRANSACT for money permissions)' },
  listAgents: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  listAgentApprovals: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  getAgentById: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  updateAgent: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19, §20.1: MANAGE; resuming a paused agent needs what the agent may do' },
  deleteAgent: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  updateAgentPolicy: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19, §20.3: MANAGE; a policy grants only what the caller holds' },
  regenerateAgentDeviceCode: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19, §20.4: MANAGE; a new code connects the agent, so the caller must hold what the agent may do' },
  approveAgentAction: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §20.5: approving runs the payment (TRANSACT sends payments, §19)' },
  rejectAgentAction: { auth: 'basic', token: ['TRANSACT'], cite: 'REFERENCE §20.5: decides a payment, as POST /transactions/{id}/reject does (TRANSACT, §19)' },
  getAgentDeviceCodeStatus: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  redeemAgentDeviceCode: { auth: 'none', cite: 'REFERENCE §20.1: redeem takes no auth; the device code authorizes, once' },
  getAgentMe: { auth: 'agent', agent: null, cite: 'REFERENCE §20.2: AgentAuth; reading names no permission' },
  agentListTransactions: { auth: 'agent', agent: null, cite: 'REFERENCE §20.2: AgentAuth; reading names no permission' },
  agentGetTransaction: { auth: 'agent', agent: null, cite: 'REFERENCE §20.2: AgentAuth; reading names no permission' },
  agentCreateQuote: { auth: 'agent', agent: 'CREATE_QUOTES', cite: 'REFERENCE §20.2: AgentAuth; permission CREATE_QUOTES' },
  agentGetQuote: { auth: 'agent', agent: null, cite: 'REFERENCE §20.2: AgentAuth; reading names no permission' },
  agentExecuteQuote: { auth: 'agent', agent: 'EXECUTE_QUOTES', cite: 'REFERENCE §20.2: AgentAuth; permission EXECUTE_QUOTES' },
  agentListActions: { auth: 'agent', agent: null, cite: 'REFERENCE §20.2: AgentAuth; reading names no permission' },
  agentGetAction: { auth: 'agent', agent: null, cite: 'REFERENCE §20.2: AgentAuth; reading names no permission' },
  agentCreateTransferIn: { auth: 'agent', agent: 'CREATE_TRANSFERS', cite: 'REFERENCE §20.2: AgentAuth; permission CREATE_TRANSFERS' },
  agentCreateTransferOut: { auth: 'agent', agent: 'CREATE_TRANSFERS', cite: 'REFERENCE §20.2: AgentAuth; permission CREATE_TRANSFERS' },
  agentListInternalAccounts: { auth: 'agent', agent: null, cite: 'REFERENCE §20.2: AgentAuth; reading names no permission' },
  agentListExternalAccounts: { auth: 'agent', agent: 'MANAGE_EXTERNAL_ACCOUNTS', cite: 'REFERENCE §20.2: AgentAuth; permission MANAGE_EXTERNAL_ACCOUNTS' },
  agentCreateExternalAccount: { auth: 'agent', agent: 'MANAGE_EXTERNAL_ACCOUNTS', cite: 'REFERENCE §20.2: AgentAuth; permission MANAGE_EXTERNAL_ACCOUNTS' },
  agentGetExternalAccount: { auth: 'agent', agent: 'MANAGE_EXTERNAL_ACCOUNTS', cite: 'REFERENCE §20.2: AgentAuth; permission MANAGE_EXTERNAL_ACCOUNTS' },
  agentDeleteExternalAccount: { auth: 'agent', agent: 'MANAGE_EXTERNAL_ACCOUNTS', cite: 'REFERENCE §20.2: AgentAuth; permission MANAGE_EXTERNAL_ACCOUNTS' },
  createDelegatedKey: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  listDelegatedKeys: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  getDelegatedKeyById: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  revokeDelegatedKey: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  getDiscoveries: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  listVasps: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  getAvailableUmaProviders: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  lookupExternalAccount: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  estimateCryptoWithdrawalFee: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  listScaFactors: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  startScaFactorEnrollment: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  confirmScaFactorEnrollment: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  deleteScaFactor: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  recordSecurityEvent: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  startTwoFactorReset: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  getTwoFactorResetStatus: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
  completeTwoFactorReset: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  submitSandboxLiveness: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  uploadCustomersCsv: { auth: 'basic', token: ['MANAGE'], cite: 'REFERENCE §19: MANAGE manages config, tokens and customers' },
  getBulkCustomerImportJob: { auth: 'basic', token: ['VIEW'], cite: 'REFERENCE §19: VIEW reads all data' },
};

/** The rule of an operation; an operation without a row is a mistake caught by the tests, and refused to tokens here. */
export const accessRuleOf = (endpoint: Pick<Endpoint, 'operationId'>): AccessRule | undefined =>
  Object.hasOwn(ACCESS, endpoint.operationId) ? ACCESS[endpoint.operationId] : undefined;

const ALL_PERMISSIONS: readonly ApiTokenPermission[] = ['VIEW', 'TRANSACT', 'MANAGE'];

/**
 * The permissions an API token needs for an operation (every one of them): the `token` list of its row. An operation
 * that takes no Basic credentials, or has no row, needs all three, so no token slips through a gap in the table.
 */
export function requiredPermissions(endpoint: Pick<Endpoint, 'operationId'>): readonly ApiTokenPermission[] {
  const rule = accessRuleOf(endpoint);
  return rule?.auth === 'basic' ? rule.token : ALL_PERMISSIONS;
}

/**
 * What granting an agent permission hands out, in API-token terms: reading the customer's transactions is VIEW,
 * moving money is TRANSACT, managing external accounts is MANAGE.
 */
export const AGENT_PERMISSION_GRANTS: Readonly<Record<AgentPermission, ApiTokenPermission>> = {
  VIEW_TRANSACTIONS: 'VIEW', CREATE_QUOTES: 'TRANSACT', EXECUTE_QUOTES: 'TRANSACT', CREATE_TRANSFERS: 'TRANSACT', MANAGE_EXTERNAL_ACCOUNTS: 'MANAGE',
};

/**
 * The API-token permissions an agent with these policy permissions amounts to: VIEW always (every agent reads its
 * customer's transactions and balances, REFERENCE §20.2), and what each of its permissions grants.
 */
export function tokenPermissionsOfAgent(permissions: readonly AgentPermission[]): ApiTokenPermission[] {
  const granted = new Set<ApiTokenPermission>(['VIEW']);
  for (const permission of permissions) granted.add(AGENT_PERMISSION_GRANTS[permission]);
  return ALL_PERMISSIONS.filter((permission) => granted.has(permission));
}

/**
 * The permissions of `wanted` that `holder` lacks (a credential may grant only what it holds itself); `holder`
 * undefined stands for the platform's own credentials, which hold everything.
 */
export function missingPermissions(holder: readonly ApiTokenPermission[] | undefined, wanted: readonly ApiTokenPermission[]): ApiTokenPermission[] {
  if (holder === undefined) return [];
  return ALL_PERMISSIONS.filter((permission) => wanted.includes(permission) && !holder.includes(permission));
}
