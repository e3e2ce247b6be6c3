import type { Agent, AgentAction, AgentCreateRequest, AgentCreated, AgentDeviceCode, AgentDeviceCodeRedemption, AgentPolicyUpdate, AgentUpdateRequest, ListAgentApprovalsQuery, ListAgentsQuery, Quote, QuoteRequest, TransferInRequest, TransferOutRequest } from '@railyard/contract/routes';
import { agentEndpoints, agentSideEndpoints } from '@railyard/contract/routes';
import type { RailyardClient } from '../client.js';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, QueryParams, ResultOf } from '../core/endpoint.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';
import { pollUntil, type WaitForOptions } from './wait-for-transaction.js';
import { AgentActionWaitTimeoutError } from '../core/errors.js';

/** An agent: acts for one customer under its `policy`; `usage` counts what it spent today and this month. */
export type { Agent };
/** What an agent may do, spend and run without approval. */
export type AgentPolicy = Agent['policy'];
/** {@link Agents.create}'s answer: the agent and the device code that connects it. */
export type { AgentCreated };
/** A device code: give it to the agent, which redeems it once for its access token. */
export type { AgentDeviceCode };
/** The one answer that carries an agent's access token. */
export type { AgentDeviceCodeRedemption };
/** Something an agent started that moves money: PENDING_APPROVAL, APPROVED (with `transaction`), REJECTED or FAILED. */
export type { AgentAction };
/** Body of {@link Agents.create}: `name`, `customerId`, `policy`. */
export type AgentCreateParams = AgentCreateRequest;
/** Body of {@link Agents.update}: `name`, `isPaused`. */
export type AgentUpdateParams = AgentUpdateRequest;
/** Body of {@link Agents.updatePolicy}: any part of the policy (`spendingLimits` partial; null removes a daily or monthly limit). */
export type AgentPolicyUpdateParams = AgentPolicyUpdate;
/** Query of {@link Agents.list}: `customerId`, `isPaused`, `isConnected`, created and updated ranges. */
export type AgentListParams = ListAgentsQuery;
/** Query of {@link Agents.listApprovals}: `agentId`, `customerId`, `startDate`, `endDate`, `sortOrder`. */
export type AgentApprovalListParams = ListAgentApprovalsQuery;

/**
 * Agents, the platform's side: create one for a customer with a policy, give it the device code,
 * watch it connect, approve or reject what it asks to do, pause it, change its policy, delete it.
 *
 * ```ts
 * const { agent, deviceCode } = await client.agents.create({ name: 'Budget bot', customerId, policy });
 * // the agent: const agentClient = await redeemAgentDeviceCode(deviceCode.code, { baseUrl })
 * for await (const action of client.agents.listApprovals({ agentId: agent.id })) …
 * ```
 */
export class Agents extends APIResource {
  create(body: AgentCreateParams, options?: RequestOptions): APIPromise<AgentCreated> {
    return this._client.call(agentEndpoints.createAgent, { body }, options);
  }

  list(query: AgentListParams = {}, options?: RequestOptions): PagePromise<Agent> {
    return this._client.callPage(agentEndpoints.listAgents, { query }, options);
  }

  retrieve(agentId: string, options?: RequestOptions): APIPromise<Agent> {
    return this._client.call(agentEndpoints.getAgentById, { params: { agentId } }, options);
  }

  /** Renames or pauses the agent (a paused agent starts nothing; its requests reject with 403). */
  update(agentId: string, body: AgentUpdateParams, options?: RequestOptions): APIPromise<Agent> {
    return this._client.call(agentEndpoints.updateAgent, { params: { agentId }, body }, options);
  }

  /** Deletes the agent: its access token fails at once. */
  delete(agentId: string, options?: RequestOptions): APIPromise<void> {
    return this._client.call(agentEndpoints.deleteAgent, { params: { agentId } }, options) as APIPromise<void>;
  }

  /** Changes part of the policy; it applies at once. */
  updatePolicy(agentId: string, body: AgentPolicyUpdateParams, options?: RequestOptions): APIPromise<Agent> {
    return this._client.call(agentEndpoints.updateAgentPolicy, { params: { agentId }, body }, options);
  }

  /** A new device code (earlier unredeemed ones stop working); a {@link ConflictError} once the agent is connected. */
  regenerateDeviceCode(agentId: string, options?: RequestOptions): APIPromise<AgentDeviceCode> {
    return this._client.call(agentEndpoints.regenerateAgentDeviceCode, { params: { agentId } }, options);
  }

  /** Whether the device code was redeemed: poll it while the agent connects. */
  deviceCodeStatus(code: string, options?: RequestOptions): APIPromise<{ code: string; redeemed: boolean }> {
    return this._client.call(agentEndpoints.getAgentDeviceCodeStatus, { params: { code } }, options);
  }

  /** The actions that waited (or wait) for approval; iterate with `for await` for all of them. */
  listApprovals(query: AgentApprovalListParams = {}, options?: RequestOptions): PagePromise<AgentAction> {
    return this._client.callPage(agentEndpoints.listAgentApprovals, { query }, options);
  }

  /** Approves a pending action: it runs now, checked against the latest policy (APPROVED, or FAILED with `failureReason`). */
  approveAction(agentId: string, actionId: string, options?: RequestOptions): APIPromise<AgentAction> {
    return this._client.call(agentEndpoints.approveAgentAction, { params: { agentId, actionId } }, options);
  }

  /** Rejects a pending action; the reason is kept as `rejectionReason`. */
  rejectAction(agentId: string, actionId: string, reason?: string, options?: RequestOptions): APIPromise<AgentAction> {
    return this._client.call(agentEndpoints.rejectAgentAction, { params: { agentId, actionId }, body: reason === undefined ? {} : { reason } }, options);
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// The agent's side

/** Body of {@link AgentQuotes.create}: a QuoteRequest from the customer's accounts. */
export type AgentQuoteCreateParams = QuoteRequest;
/** A quote, as the agent sees it. */
export type AgentQuote = Quote;
/** Body of {@link AgentTransfers.out}. */
export type AgentTransferOutParams = TransferOutRequest;
/** Body of {@link AgentTransfers.in}. */
export type AgentTransferInParams = TransferInRequest;
/** Options of {@link AgentActions.waitFor}: as {@link WaitForOptions}, with `until` reading the action. */
export type AgentActionWaitForOptions = Omit<WaitForOptions, 'until'> & { until?: (action: AgentAction) => boolean };

type Sleep = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

/** Quotes of the agent (CREATE_QUOTES to create, EXECUTE_QUOTES to execute). */
export class AgentQuotes extends APIResource {
  create(body: AgentQuoteCreateParams, options?: RequestOptions): APIPromise<AgentQuote> {
    return this._client.call(agentSideEndpoints.agentCreateQuote, { body }, options);
  }

  retrieve(quoteId: string, options?: RequestOptions): APIPromise<AgentQuote> {
    return this._client.call(agentSideEndpoints.agentGetQuote, { params: { quoteId } }, options);
  }

  /** Executes a quote: an action that ran (APPROVED) or waits for the platform (PENDING_APPROVAL). */
  execute(quoteId: string, options?: RequestOptions): APIPromise<AgentAction> {
    return this._client.call(agentSideEndpoints.agentExecuteQuote, { params: { quoteId } }, options);
  }
}

/** Transfers of the agent (CREATE_TRANSFERS): each an action that ran or waits for approval. */
export class AgentTransfers extends APIResource {
  out(body: AgentTransferOutParams, options?: RequestOptions): APIPromise<AgentAction> {
    return this._client.call(agentSideEndpoints.agentCreateTransferOut, { body }, options);
  }

  in(body: AgentTransferInParams, options?: RequestOptions): APIPromise<AgentAction> {
    return this._client.call(agentSideEndpoints.agentCreateTransferIn, { body }, options);
  }
}

/** The agent's actions, and waiting for the platform to decide one. */
export class AgentActions extends APIResource {
  readonly #sleep: Sleep;

  /** @param sleep - How {@link AgentActions.waitFor} sleeps between reads; the client passes its own. */
  constructor(client: RailyardClient, sleep: Sleep) {
    super(client);
    this.#sleep = sleep;
  }

  list(query: QueryParams<typeof agentSideEndpoints.agentListActions> = {}, options?: RequestOptions): PagePromise<AgentAction> {
    return this._client.callPage(agentSideEndpoints.agentListActions, { query }, options);
  }

  retrieve(actionId: string, options?: RequestOptions): APIPromise<AgentAction> {
    return this._client.call(agentSideEndpoints.agentGetAction, { params: { actionId } }, options);
  }

  /**
   * Resolves with the action once the platform decided it (no longer PENDING_APPROVAL), or once `options.until` holds;
   * rejects with an {@link AgentActionWaitTimeoutError} after `timeout` (default 10 minutes of polling).
   */
  waitFor(actionId: string, options: AgentActionWaitForOptions = {}): Promise<AgentAction> {
    return pollUntil(this._client, {
      read: (request) => this.retrieve(actionId, request),
      done: options.until ?? ((action) => action.status !== 'PENDING_APPROVAL'),
      timedOut: (action, timeout, advancedClock) => new AgentActionWaitTimeoutError({ actionId, action, timeout, advancedClock }),
    }, options, this.#sleep);
  }
}

/** The customer's accounts and transactions as the agent sees them. */
export class AgentAccounts extends APIResource {
  listInternal(query: QueryParams<typeof agentSideEndpoints.agentListInternalAccounts> = {}, options?: RequestOptions) {
    return this._client.callPage(agentSideEndpoints.agentListInternalAccounts, { query }, options);
  }

  /** MANAGE_EXTERNAL_ACCOUNTS. */
  listExternal(query: QueryParams<typeof agentSideEndpoints.agentListExternalAccounts> = {}, options?: RequestOptions) {
    return this._client.callPage(agentSideEndpoints.agentListExternalAccounts, { query }, options);
  }

  /** MANAGE_EXTERNAL_ACCOUNTS: adds an external account for the customer. */
  createExternal(body: BodyParams<typeof agentSideEndpoints.agentCreateExternalAccount>, options?: RequestOptions) {
    return this._client.call(agentSideEndpoints.agentCreateExternalAccount, { body }, options);
  }

  retrieveExternal(externalAccountId: string, options?: RequestOptions) {
    return this._client.call(agentSideEndpoints.agentGetExternalAccount, { params: { externalAccountId } }, options);
  }

  deleteExternal(externalAccountId: string, options?: RequestOptions): APIPromise<void> {
    return this._client.call(agentSideEndpoints.agentDeleteExternalAccount, { params: { externalAccountId } }, options) as APIPromise<void>;
  }

  listTransactions(query: QueryParams<typeof agentSideEndpoints.agentListTransactions> = {}, options?: RequestOptions) {
    return this._client.callPage(agentSideEndpoints.agentListTransactions, { query }, options);
  }

  retrieveTransaction(transactionId: string, options?: RequestOptions) {
    return this._client.call(agentSideEndpoints.agentGetTransaction, { params: { transactionId } }, options);
  }
}
