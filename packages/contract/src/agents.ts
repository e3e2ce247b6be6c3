import { z } from 'zod';
import { CurrencyCode, IdParam, IsoDate, MAX_LENGTH, MinorUnits, Timestamp, cappedString, resourceId } from './common.js';
import { CustomerId } from './customers.js';
import { defineEndpoint } from './endpoint.js';
import { ExternalAccount, ExternalAccountCreateRequest } from './external-accounts.js';
import { InternalAccount, InternalAccountType } from './accounts.js';
import { PageQuery, QueryBoolean, SortOrder, TimeBound, TimeRangeQuery, pageOf } from './pagination.js';
import { TransferInRequest, TransferOutRequest } from './payment-endpoints.js';
import { Quote, QuoteRequest } from './quotes.js';
import { Transaction, TransactionListQuery } from './transactions.js';

// Agents (REFERENCE §20; SPEC §5 item 2, AgentAuth): software acting for one customer of the platform, connected by a
// device code, with its own Bearer token, under a policy the platform sets. What the policy allows runs; what needs
// approval waits as an AgentAction the platform approves or rejects; what it forbids is 403 FORBIDDEN.

export const AgentId = resourceId('Agent').meta({ id: 'AgentId' });
export const AgentActionId = resourceId('AgentAction').meta({ id: 'AgentActionId' });

/** What an agent may do. */
export const AgentPermission = z
  .enum(['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'])
  .meta({ id: 'AgentPermission' });
export type AgentPermission = z.infer<typeof AgentPermission>;

export const AgentExecutionMode = z.enum(['AUTO', 'APPROVAL_REQUIRED']).meta({ id: 'AgentExecutionMode' });
export type AgentExecutionMode = z.infer<typeof AgentExecutionMode>;

const Limit = MinorUnits;

/** Spending limits, in minor units of `currency` (amounts in other currencies are converted at the current rate). */
export const AgentSpendingLimits = z
  .object({
    currency: CurrencyCode,
    perTransactionLimit: Limit,
    /** Null or absent: no daily limit. */
    dailyLimit: Limit.nullable().optional(),
    /** How many transactions a day. */
    dailyTransactionLimit: z.number().int().min(0).optional(),
    /** Null or absent: no monthly limit. */
    monthlyLimit: Limit.nullable().optional(),
  })
  .meta({ id: 'AgentSpendingLimits' });
export type AgentSpendingLimits = z.infer<typeof AgentSpendingLimits>;

/** A rule for one account: its own execution mode and per-transaction limit (null: the policy's). */
export const AgentAccountRule = z
  .object({ accountId: IdParam.min(1), executionMode: AgentExecutionMode.optional(), perTransactionLimit: Limit.nullable().optional() })
  .meta({ id: 'AgentAccountRule' });

export const AgentAccountRestrictions = z
  .object({
    /** The accounts the agent may use; null or absent: all of its customer's. */
    allowedAccountIds: z.array(IdParam.min(1)).nullable().optional(),
    accountRules: z.array(AgentAccountRule).optional(),
  })
  .meta({ id: 'AgentAccountRestrictions' });

/** Above `amount` (in `currency`) an action needs approval, even under AUTO. */
export const AgentApprovalThresholds = z
  .object({ currency: CurrencyCode.optional(), amount: Limit.nullable().optional() })
  .refine((t) => t.amount === undefined || t.amount === null || t.currency !== undefined, { message: 'currency is required when amount is set', path: ['currency'] })
  .meta({ id: 'AgentApprovalThresholds' });

export const AgentPolicy = z
  .object({
    permissions: z.array(AgentPermission),
    defaultExecutionMode: AgentExecutionMode,
    spendingLimits: AgentSpendingLimits,
    accountRestrictions: AgentAccountRestrictions.optional(),
    approvalThresholds: AgentApprovalThresholds.optional(),
  })
  .meta({ id: 'AgentPolicy' });
export type AgentPolicy = z.infer<typeof AgentPolicy>;

/**
 * `PATCH /agents/{id}/policy`: omitted fields are kept; `permissions` replaces the list; `spendingLimits` is partial
 * (null removes `dailyLimit` or `monthlyLimit`; a new `currency` re-expresses the limits in it).
 */
export const AgentPolicyUpdate = z
  .object({
    permissions: z.array(AgentPermission).optional(),
    defaultExecutionMode: AgentExecutionMode.optional(),
    spendingLimits: AgentSpendingLimits.partial().optional(),
    accountRestrictions: AgentAccountRestrictions.optional(),
    approvalThresholds: AgentApprovalThresholds.optional(),
  })
  .meta({ id: 'AgentPolicyUpdate' });
export type AgentPolicyUpdate = z.input<typeof AgentPolicyUpdate>;

/** What an agent spent, in minor units of its limits' currency, and when the counts start again. */
export const AgentUsage = z
  .object({
    dailyTransactionCount: z.number().int().min(0),
    dailySpend: MinorUnits,
    monthlySpend: MinorUnits,
    dailyResetDate: IsoDate.optional(),
    /** `YYYY-MM`. */
    monthlyResetMonth: z.string().optional(),
  })
  .meta({ id: 'AgentUsage' });
export type AgentUsage = z.infer<typeof AgentUsage>;

export const Agent = z
  .object({
    id: AgentId,
    name: z.string(),
    customerId: CustomerId,
    isPaused: z.boolean(),
    /** True once a device code was redeemed. */
    isConnected: z.boolean(),
    policy: AgentPolicy,
    usage: AgentUsage,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Agent' });
export type Agent = z.infer<typeof Agent>;

export const AgentDeviceCode = z
  .object({ code: z.string(), agentId: AgentId, expiresAt: Timestamp, redeemed: z.boolean() })
  .meta({ id: 'AgentDeviceCode' });
export type AgentDeviceCode = z.infer<typeof AgentDeviceCode>;

export const AgentCreateRequest = z
  .object({ name: cappedString(MAX_LENGTH.name).trim().min(1), customerId: CustomerId, policy: AgentPolicy })
  .meta({ id: 'AgentCreateRequest' });
export type AgentCreateRequest = z.input<typeof AgentCreateRequest>;

export const AgentCreated = z.object({ agent: Agent, deviceCode: AgentDeviceCode }).meta({ id: 'AgentCreated' });
export type AgentCreated = z.infer<typeof AgentCreated>;

export const AgentUpdateRequest = z
  .object({ name: cappedString(MAX_LENGTH.name).trim().min(1).optional(), isPaused: z.boolean().optional() })
  .refine((u) => u.name !== undefined || u.isPaused !== undefined, { message: 'name or isPaused is required' })
  .meta({ id: 'AgentUpdateRequest' });
export type AgentUpdateRequest = z.input<typeof AgentUpdateRequest>;

export const AgentListQuery = PageQuery.extend({
  customerId: IdParam.optional(),
  isPaused: QueryBoolean.optional(),
  isConnected: QueryBoolean.optional(),
  ...TimeRangeQuery,
});
export type AgentListQuery = z.input<typeof AgentListQuery>;

export const AgentDeviceCodeStatus = z.object({ code: z.string(), redeemed: z.boolean() }).meta({ id: 'AgentDeviceCodeStatus' });
/** The single answer that carries an agent's access token. */
export const AgentDeviceCodeRedemption = z
  .object({ agentId: AgentId, agentName: z.string(), accessToken: z.string(), policy: AgentPolicy })
  .meta({ id: 'AgentDeviceCodeRedemption' });
export type AgentDeviceCodeRedemption = z.infer<typeof AgentDeviceCodeRedemption>;

export const AgentActionStatus = z.enum(['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED']).meta({ id: 'AgentActionStatus' });
export type AgentActionStatus = z.infer<typeof AgentActionStatus>;
export const AgentActionType = z.enum(['EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN']).meta({ id: 'AgentActionType' });

/** Something an agent started that moves money: a quote to execute, or a transfer. */
export const AgentAction = z
  .object({
    id: AgentActionId,
    agentId: AgentId,
    customerId: CustomerId,
    platformCustomerId: z.string(),
    status: AgentActionStatus,
    type: AgentActionType,
    quote: Quote.optional(),
    transferDetails: z
      .object({ amount: MinorUnits, currency: CurrencyCode, sourceAccountId: z.string(), destinationAccountId: z.string() })
      .optional(),
    /** Once approved and running. */
    transaction: Transaction.optional(),
    rejectionReason: z.string().optional(),
    /** Railyard: why an approved action could not run (FAILED). */
    failureReason: z.string().optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'AgentAction' });
export type AgentAction = z.infer<typeof AgentAction>;

export const AgentApprovalListQuery = PageQuery.extend({
  agentId: IdParam.optional(),
  customerId: IdParam.optional(),
  startDate: TimeBound.optional(),
  endDate: TimeBound.optional(),
  sortOrder: SortOrder.default('desc'),
});
export type AgentApprovalListQuery = z.input<typeof AgentApprovalListQuery>;

export const AgentActionRejectRequest = z.object({ reason: cappedString(MAX_LENGTH.description).min(1).optional() }).meta({ id: 'AgentActionRejectRequest' });

/** The agent's own lists. */
export const AgentTransactionListQuery = TransactionListQuery.omit({ customerId: true, platformCustomerId: true });
export const AgentActionListQuery = PageQuery.extend({ status: AgentActionStatus.optional() });
export const AgentInternalAccountListQuery = PageQuery.extend({ currency: CurrencyCode.optional(), type: InternalAccountType.optional() });
export const AgentExternalAccountListQuery = PageQuery.extend({ currency: CurrencyCode.optional() });
/** `POST /agents/me/external-accounts`: `customerId` may be left out (it is the agent's customer in any case). */
export const AgentExternalAccountCreateRequest = ExternalAccountCreateRequest;

// ---------------------------------------------------------------------------------------------------------------------
// Platform side (Basic auth)

const tag = 'Agents';
const agentParams = z.object({ agentId: IdParam });
const actionParams = z.object({ agentId: IdParam, actionId: IdParam });
const codeParams = z.object({ code: IdParam });

export const agentEndpoints = {
  createAgent: defineEndpoint({
    operationId: 'createAgent', method: 'POST', path: '/agents', tag, body: AgentCreateRequest,
    summary: "Create an agent for a customer, with its policy; the answer carries the device code that connects it",
    response: { status: 201, description: 'The agent and its device code', schema: AgentCreated }, errors: [404],
    secrets: { response: ['deviceCode.code'] },
  }),
  listAgents: defineEndpoint({
    operationId: 'listAgents', method: 'GET', path: '/agents', tag, query: AgentListQuery, summary: 'List agents, newest first',
    response: { status: 200, description: 'A page of agents', schema: pageOf(Agent) },
  }),
  listAgentApprovals: defineEndpoint({
    operationId: 'listAgentApprovals', method: 'GET', path: '/agents/approvals', tag, query: AgentApprovalListQuery,
    summary: "Agents' actions that waited for (or wait for) approval",
    response: { status: 200, description: 'A page of actions', schema: pageOf(AgentAction) },
  }),
  getAgentById: defineEndpoint({
    operationId: 'getAgentById', method: 'GET', path: '/agents/{agentId}', tag, params: agentParams, summary: 'Retrieve an agent',
    response: { status: 200, description: 'The agent', schema: Agent }, errors: [404],
  }),
  updateAgent: defineEndpoint({
    operationId: 'updateAgent', method: 'PATCH', path: '/agents/{agentId}', tag, params: agentParams, body: AgentUpdateRequest,
    summary: 'Rename or pause an agent (a paused agent starts nothing)',
    response: { status: 200, description: 'The agent', schema: Agent }, errors: [404],
  }),
  deleteAgent: defineEndpoint({
    operationId: 'deleteAgent', method: 'DELETE', path: '/agents/{agentId}', tag, params: agentParams,
    summary: "Delete an agent: its access token stops working at once",
    response: { status: 204, description: 'Deleted' }, errors: [404],
  }),
  updateAgentPolicy: defineEndpoint({
    operationId: 'updateAgentPolicy', method: 'PATCH', path: '/agents/{agentId}/policy', tag, params: agentParams, body: AgentPolicyUpdate,
    summary: "Change an agent's policy; it applies at once",
    response: { status: 200, description: 'The agent', schema: Agent }, errors: [404],
  }),
  regenerateAgentDeviceCode: defineEndpoint({
    operationId: 'regenerateAgentDeviceCode', method: 'POST', path: '/agents/{agentId}/device-codes', tag, params: agentParams,
    summary: 'A new device code (earlier unredeemed ones stop working); 409 once the agent is connected',
    response: { status: 201, description: 'The device code', schema: AgentDeviceCode }, errors: [404, 409],
    secrets: { response: ['code'] },
  }),
  approveAgentAction: defineEndpoint({
    operationId: 'approveAgentAction', method: 'POST', path: '/agents/{agentId}/actions/{actionId}/approve', tag, params: actionParams,
    summary: 'Approve a pending action: it runs now, checked against the latest policy (APPROVED, or FAILED)',
    response: { status: 200, description: 'The action', schema: AgentAction }, errors: [404, 409],
  }),
  rejectAgentAction: defineEndpoint({
    operationId: 'rejectAgentAction', method: 'POST', path: '/agents/{agentId}/actions/{actionId}/reject', tag, params: actionParams,
    body: AgentActionRejectRequest, bodyOptional: true, summary: 'Reject a pending action; the reason is kept',
    response: { status: 200, description: 'The action, REJECTED', schema: AgentAction }, errors: [404, 409],
  }),
  getAgentDeviceCodeStatus: defineEndpoint({
    operationId: 'getAgentDeviceCodeStatus', method: 'GET', path: '/agents/device-codes/{code}/status', tag, params: codeParams,
    summary: 'Whether a device code was redeemed (poll it while the agent connects)',
    response: { status: 200, description: 'The status', schema: AgentDeviceCodeStatus }, errors: [404],
    secrets: { params: ['code'], response: ['code'] },
  }),
  redeemAgentDeviceCode: defineEndpoint({
    operationId: 'redeemAgentDeviceCode', method: 'POST', path: '/agents/device-codes/{code}/redeem', tag, params: codeParams, auth: 'none',
    summary: "Redeem a device code, without credentials: the agent's access token, this once",
    description: '400 when the code was redeemed already or has expired.',
    response: { status: 200, description: 'The access token and policy', schema: AgentDeviceCodeRedemption }, errors: [404],
    secrets: { params: ['code'], once: ['accessToken'] },
  }),
} as const;

// ---------------------------------------------------------------------------------------------------------------------
// Agent side (AgentAuth: Authorization: Bearer <accessToken>)

const me = 'Agent operations';
const agent = 'agent' as const;

export const agentSideEndpoints = {
  getAgentMe: defineEndpoint({
    operationId: 'getAgentMe', method: 'GET', path: '/agents/me', tag: me, auth: agent, summary: 'The agent itself: its policy and usage',
    response: { status: 200, description: 'The agent', schema: Agent },
  }),
  agentListTransactions: defineEndpoint({
    operationId: 'agentListTransactions', method: 'GET', path: '/agents/me/transactions', tag: me, auth: agent, query: AgentTransactionListQuery,
    summary: "The agent's customer's transactions", response: { status: 200, description: 'A page of transactions', schema: pageOf(Transaction) },
  }),
  agentGetTransaction: defineEndpoint({
    operationId: 'agentGetTransaction', method: 'GET', path: '/agents/me/transactions/{transactionId}', tag: me, auth: agent,
    params: z.object({ transactionId: IdParam }), summary: "A transaction of the agent's customer",
    response: { status: 200, description: 'The transaction', schema: Transaction }, errors: [404],
  }),
  agentCreateQuote: defineEndpoint({
    operationId: 'agentCreateQuote', method: 'POST', path: '/agents/me/quotes', tag: me, auth: agent, body: QuoteRequest,
    summary: "Quote a payment from the agent's customer's accounts (needs CREATE_QUOTES)",
    response: { status: 201, description: 'The quote', schema: Quote }, errors: [403, 412, 424],
  }),
  agentGetQuote: defineEndpoint({
    operationId: 'agentGetQuote', method: 'GET', path: '/agents/me/quotes/{quoteId}', tag: me, auth: agent,
    params: z.object({ quoteId: IdParam }), summary: 'A quote this agent created',
    response: { status: 200, description: 'The quote', schema: Quote }, errors: [404],
  }),
  agentExecuteQuote: defineEndpoint({
    operationId: 'agentExecuteQuote', method: 'POST', path: '/agents/me/quotes/{quoteId}/execute', tag: me, auth: agent,
    params: z.object({ quoteId: IdParam }), summary: 'Execute a quote (needs EXECUTE_QUOTES): runs, or waits for approval',
    response: { status: 200, description: 'The action', schema: AgentAction }, errors: [403, 409],
  }),
  agentListActions: defineEndpoint({
    operationId: 'agentListActions', method: 'GET', path: '/agents/me/actions', tag: me, auth: agent, query: AgentActionListQuery,
    summary: "The agent's actions, newest first", response: { status: 200, description: 'A page of actions', schema: pageOf(AgentAction) },
  }),
  agentGetAction: defineEndpoint({
    operationId: 'agentGetAction', method: 'GET', path: '/agents/me/actions/{actionId}', tag: me, auth: agent,
    params: z.object({ actionId: IdParam }), summary: 'One of its actions (poll it while it waits for approval)',
    response: { status: 200, description: 'The action', schema: AgentAction }, errors: [404],
  }),
  agentCreateTransferIn: defineEndpoint({
    operationId: 'agentCreateTransferIn', method: 'POST', path: '/agents/me/transfer-in', tag: me, auth: agent,
    body: TransferInRequest, summary: 'Pull from a pullable external account into an internal account (needs CREATE_TRANSFERS)',
    response: { status: 201, description: 'The action', schema: AgentAction }, errors: [403, 404],
  }),
  agentCreateTransferOut: defineEndpoint({
    operationId: 'agentCreateTransferOut', method: 'POST', path: '/agents/me/transfer-out', tag: me, auth: agent,
    body: TransferOutRequest, summary: 'Pay from an internal account to an external account (needs CREATE_TRANSFERS)',
    response: { status: 201, description: 'The action', schema: AgentAction }, errors: [403, 404],
  }),
  agentListInternalAccounts: defineEndpoint({
    operationId: 'agentListInternalAccounts', method: 'GET', path: '/agents/me/internal-accounts', tag: me, auth: agent,
    query: AgentInternalAccountListQuery, summary: "The agent's customer's internal accounts",
    response: { status: 200, description: 'A page of internal accounts', schema: pageOf(InternalAccount) },
  }),
  agentListExternalAccounts: defineEndpoint({
    operationId: 'agentListExternalAccounts', method: 'GET', path: '/agents/me/external-accounts', tag: me, auth: agent,
    query: AgentExternalAccountListQuery, summary: "The agent's customer's external accounts (needs MANAGE_EXTERNAL_ACCOUNTS)",
    response: { status: 200, description: 'A page of external accounts', schema: pageOf(ExternalAccount) }, errors: [403],
  }),
  agentCreateExternalAccount: defineEndpoint({
    operationId: 'agentCreateExternalAccount', method: 'POST', path: '/agents/me/external-accounts', tag: me, auth: agent,
    body: AgentExternalAccountCreateRequest, summary: "Add an external account for the agent's customer (needs MANAGE_EXTERNAL_ACCOUNTS)",
    response: { status: 201, description: 'The external account', schema: ExternalAccount }, errors: [403, 409],
  }),
  agentGetExternalAccount: defineEndpoint({
    operationId: 'agentGetExternalAccount', method: 'GET', path: '/agents/me/external-accounts/{externalAccountId}', tag: me, auth: agent,
    params: z.object({ externalAccountId: IdParam }), summary: "An external account of the agent's customer (needs MANAGE_EXTERNAL_ACCOUNTS)",
    response: { status: 200, description: 'The external account', schema: ExternalAccount }, errors: [403],
  }),
  agentDeleteExternalAccount: defineEndpoint({
    operationId: 'agentDeleteExternalAccount', method: 'DELETE', path: '/agents/me/external-accounts/{externalAccountId}', tag: me, auth: agent,
    params: z.object({ externalAccountId: IdParam }), summary: "Delete an external account of the agent's customer (needs MANAGE_EXTERNAL_ACCOUNTS)",
    response: { status: 204, description: 'Deleted' }, errors: [403],
  }),
} as const;
