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
export type AccessRule = (
  | { readonly auth: 'basic'; readonly token: readonly ApiTokenPermission[] }
  | { readonly auth: 'agent'; readonly agent: AgentPermission | null }
  | { readonly auth: 'link' | 'none' }
) & {
  /** Why, in a phrase (docs/access.md prints it). */
  readonly why: string;
  /** Where the rule comes from: the sections of the specification and the reference service's documentation. */
  readonly cite: string;
};

/** The access rule of every operation, by operationId. */
export const ACCESS: Readonly<Record<string, AccessRule>> = {
  createCustomer: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  listCustomers: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getEndUserTerms: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getCustomer: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  updateCustomer: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  deleteCustomer: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  listCustomerInternalAccounts: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  fundSandboxInternalAccount: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  listPlatformInternalAccounts: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getConfig: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  updateConfig: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  getSandboxHealth: { auth: 'none', why: "no credentials: the health check reads no platform's data", cite: 'DESIGN §3' },
  getSandboxClock: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  advanceSandboxClock: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  resetSandbox: { auth: 'basic', token: ['MANAGE', 'TRANSACT'], why: "erases the platform's state: its configuration and tokens (MANAGE) and every balance (TRANSACT)", cite: 'DESIGN §3, REFERENCE §19' },
  getSandboxSnapshot: { auth: 'basic', token: ['VIEW', 'MANAGE'], why: "reads every record (VIEW) and the platform's configuration and tokens (MANAGE)", cite: 'DESIGN §3, REFERENCE §19' },
  restoreSandbox: { auth: 'basic', token: ['MANAGE', 'TRANSACT'], why: 'replaces configuration and tokens (MANAGE) and every balance (TRANSACT); it grants only what the caller holds', cite: 'DESIGN §3, REFERENCE §19' },
  listSandboxEvents: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getSandboxEvent: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  redeliverSandboxEvent: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers (as the test send does)', cite: 'REFERENCE §19' },
  listSandboxJobs: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getSandboxWhoami: { auth: 'basic', token: [], why: 'any credential may ask who it is and what it may do (it reads nothing of the platform)', cite: 'DESIGN §3' },
  streamSandboxEvents: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data; the stream shows what the event list shows, as it happens', cite: 'REFERENCE §19' },
  streamSandboxLogs: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data; the log shows the platform\'s own requests and deliveries', cite: 'REFERENCE §19' },
  createSandboxPlatform: { auth: 'basic', token: ['MANAGE'], why: 'makes new credentials: MANAGE', cite: 'DESIGN §3, REFERENCE §19' },
  setSandboxLimits: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  getSandboxWebhookKey: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  verifySandboxWebhookSignature: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  getSandboxEnclaveKey: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  setSandboxWalletProcessing: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  getOpenApiDocument: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  uploadDocument: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  listDocuments: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getDocument: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  replaceDocument: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  deleteDocument: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  createVerification: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  listVerifications: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getVerification: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  decideSandboxVerification: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  createBeneficialOwner: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  listBeneficialOwners: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getBeneficialOwner: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  updateBeneficialOwner: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  sendEmailVerificationCode: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  confirmEmailVerification: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  sendPhoneVerificationCode: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  confirmPhoneVerification: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  createKycLink: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  getKycLinkLegacy: { auth: 'basic', token: ['MANAGE'], why: 'the deprecated path of POST /customers/{id}/kyc-link: MANAGE, as that one', cite: 'REFERENCE §19' },
  getHostedKycPage: { auth: 'link', why: 'no credentials: the single-use token in the path authorizes', cite: 'REFERENCE §15.4, SPEC §4.3' },
  uploadHostedKycDocument: { auth: 'link', why: 'no credentials: the single-use token in the path authorizes', cite: 'REFERENCE §15.4, SPEC §4.3' },
  addHostedKycOwner: { auth: 'link', why: 'no credentials: the single-use token in the path authorizes', cite: 'REFERENCE §15.4, SPEC §4.3' },
  completeHostedKyc: { auth: 'link', why: 'no credentials: the single-use token in the path authorizes', cite: 'REFERENCE §15.4, SPEC §4.3' },
  approveHostedKyc: { auth: 'link', why: 'no credentials: the single-use token in the path authorizes', cite: 'REFERENCE §15.4, SPEC §4.3' },
  rejectHostedKyc: { auth: 'link', why: 'no credentials: the single-use token in the path authorizes', cite: 'REFERENCE §15.4, SPEC §4.3' },
  createExternalAccount: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  listExternalAccounts: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getExternalAccount: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  deleteExternalAccount: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  createPlatformExternalAccount: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  listPlatformExternalAccounts: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getPlatformExternalAccount: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  deletePlatformExternalAccount: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  createCustomerExternalAccountChallenge: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  createPlatformExternalAccountChallenge: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  verifyCustomerExternalAccountOwnership: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  verifyPlatformExternalAccountOwnership: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  trustExternalAccount: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  confirmTrustExternalAccount: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  untrustExternalAccount: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  confirmUntrustExternalAccount: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  createQuote: { auth: 'basic', token: ['TRANSACT'], why: 'quotes and their execution need TRANSACT; VIEW alone is 403', cite: 'REFERENCE §19' },
  getQuote: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  listQuotes: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  executeQuote: { auth: 'basic', token: ['TRANSACT'], why: 'quotes and their execution need TRANSACT; VIEW alone is 403', cite: 'REFERENCE §19' },
  authorizeQuote: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  resendQuoteAuthorization: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  listTransactions: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getTransaction: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  approveTransaction: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  rejectTransaction: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  cancelTransaction: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  confirmTransaction: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  listExchangeRates: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  sandboxSend: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  transferIn: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  transferOut: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  lookupUmaReceiver: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  sandboxUmaReceive: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  startScaLogin: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  completeScaLogin: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  sandboxWebhookTest: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  webhookTestLegacy: { auth: 'basic', token: ['MANAGE'], why: 'the deprecated path of POST /sandbox/webhooks/test: MANAGE, as that one', cite: 'REFERENCE §19' },
  createAuthCredential: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  listAuthCredentials: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  challengeAuthCredential: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  verifyAuthCredential: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  deleteAuthCredential: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  listAuthSessions: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  deleteAuthSession: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  refreshAuthSession: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  exportWallet: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  updateInternalAccount: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  createCard: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  listCards: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getCard: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  updateCard: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  revealCard: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  simulateCardAuthorization: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  simulateCardCreditAuthorization: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  simulateCardFinancialAuthorization: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  simulateCardFinancialCreditAuthorization: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  simulateCardCreditAuthorizationAdvice: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  simulateCardBalanceInquiry: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  simulateCardAuthorizationAdvice: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  simulateCardClearing: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  simulateCardReturn: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  simulateCardReturnReversal: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  getCardRevealPage: { auth: 'link', why: 'no credentials: the single-use token in the path authorizes', cite: 'REFERENCE §15.4, SPEC §4.3' },
  getCardSimulation: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  linkStablecoinProviderAccount: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  listStablecoinProviderAccounts: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getStablecoinProviderAccount: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  registerStablecoin: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  listStablecoins: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getStablecoin: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  requestStablecoinEnablement: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  createStablecoinMint: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  createStablecoinBurn: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  listStablecoinOperations: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getStablecoinOperation: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  setStablecoinOperationsStatus: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  setStablecoinProviderAccountStatus: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  setStablecoinProviderAvailability: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  fundStablecoinOperation: { auth: 'basic', token: ['TRANSACT'], why: 'TRANSACT sends payments; this moves money', cite: 'REFERENCE §19' },
  createToken: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages tokens; a token grants only permissions its maker holds', cite: 'REFERENCE §19' },
  listTokens: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getTokenById: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  deleteTokenById: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  createInvitation: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  getInvitation: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  listSandboxInvitations: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  claimInvitation: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  cancelInvitation: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  createAgent: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE; an agent gets only what its maker holds (VIEW, and TRANSACT for money permissions)', cite: 'REFERENCE §19, §20.1' },
  listAgents: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  listAgentApprovals: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getAgentById: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  updateAgent: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE; resuming a paused agent needs what the agent may do', cite: 'REFERENCE §19, §20.1' },
  deleteAgent: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  updateAgentPolicy: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE; a policy grants only what the caller holds', cite: 'REFERENCE §19, §20.3' },
  regenerateAgentDeviceCode: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE; a new code connects the agent, so the caller must hold what the agent may do', cite: 'REFERENCE §19, §20.4' },
  approveAgentAction: { auth: 'basic', token: ['TRANSACT'], why: 'approving runs the payment: TRANSACT', cite: 'REFERENCE §19, §20.5' },
  rejectAgentAction: { auth: 'basic', token: ['TRANSACT'], why: 'decides a payment, as POST /transactions/{id}/reject does: TRANSACT', cite: 'REFERENCE §19, §20.5' },
  getAgentDeviceCodeStatus: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  redeemAgentDeviceCode: { auth: 'none', why: 'no credentials: the device code authorizes, once', cite: 'REFERENCE §20.1' },
  getAgentMe: { auth: 'agent', agent: null, why: "the agent's own token; reading needs no permission", cite: 'REFERENCE §20.2' },
  agentListTransactions: { auth: 'agent', agent: null, why: "the agent's own token; reading needs no permission", cite: 'REFERENCE §20.2' },
  agentGetTransaction: { auth: 'agent', agent: null, why: "the agent's own token; reading needs no permission", cite: 'REFERENCE §20.2' },
  agentCreateQuote: { auth: 'agent', agent: 'CREATE_QUOTES', why: "the agent's own token, with CREATE_QUOTES", cite: 'REFERENCE §20.2' },
  agentGetQuote: { auth: 'agent', agent: null, why: "the agent's own token; reading needs no permission", cite: 'REFERENCE §20.2' },
  agentExecuteQuote: { auth: 'agent', agent: 'EXECUTE_QUOTES', why: "the agent's own token, with EXECUTE_QUOTES", cite: 'REFERENCE §20.2' },
  agentListActions: { auth: 'agent', agent: null, why: "the agent's own token; reading needs no permission", cite: 'REFERENCE §20.2' },
  agentGetAction: { auth: 'agent', agent: null, why: "the agent's own token; reading needs no permission", cite: 'REFERENCE §20.2' },
  agentCreateTransferIn: { auth: 'agent', agent: 'CREATE_TRANSFERS', why: "the agent's own token, with CREATE_TRANSFERS", cite: 'REFERENCE §20.2' },
  agentCreateTransferOut: { auth: 'agent', agent: 'CREATE_TRANSFERS', why: "the agent's own token, with CREATE_TRANSFERS", cite: 'REFERENCE §20.2' },
  agentListInternalAccounts: { auth: 'agent', agent: null, why: "the agent's own token; reading needs no permission", cite: 'REFERENCE §20.2' },
  agentListExternalAccounts: { auth: 'agent', agent: 'MANAGE_EXTERNAL_ACCOUNTS', why: "the agent's own token, with MANAGE_EXTERNAL_ACCOUNTS", cite: 'REFERENCE §20.2' },
  agentCreateExternalAccount: { auth: 'agent', agent: 'MANAGE_EXTERNAL_ACCOUNTS', why: "the agent's own token, with MANAGE_EXTERNAL_ACCOUNTS", cite: 'REFERENCE §20.2' },
  agentGetExternalAccount: { auth: 'agent', agent: 'MANAGE_EXTERNAL_ACCOUNTS', why: "the agent's own token, with MANAGE_EXTERNAL_ACCOUNTS", cite: 'REFERENCE §20.2' },
  agentDeleteExternalAccount: { auth: 'agent', agent: 'MANAGE_EXTERNAL_ACCOUNTS', why: "the agent's own token, with MANAGE_EXTERNAL_ACCOUNTS", cite: 'REFERENCE §20.2' },
  createDelegatedKey: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  listDelegatedKeys: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getDelegatedKeyById: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  revokeDelegatedKey: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  getDiscoveries: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  listVasps: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  getAvailableUmaProviders: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  lookupExternalAccount: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  estimateCryptoWithdrawalFee: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  listScaFactors: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  startScaFactorEnrollment: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  confirmScaFactorEnrollment: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  deleteScaFactor: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  recordSecurityEvent: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  startTwoFactorReset: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  getTwoFactorResetStatus: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
  completeTwoFactorReset: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  submitSandboxLiveness: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  uploadCustomersCsv: { auth: 'basic', token: ['MANAGE'], why: 'MANAGE manages configuration, tokens and customers', cite: 'REFERENCE §19' },
  getBulkCustomerImportJob: { auth: 'basic', token: ['VIEW'], why: 'VIEW reads all data', cite: 'REFERENCE §19' },
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
 * customer's transactions and balances), and what each of its permissions grants.
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
