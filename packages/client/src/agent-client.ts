/**
 * The agent's own client: authenticated with its access token (AgentAuth), acting as its customer under its policy.
 * @module
 */
import { agentEndpoints, agentSideEndpoints } from '@railyard/contract/routes';
import { RailyardClient, type ClientOptions } from './client.js';
import type { APIPromise } from './core/api-promise.js';
import type { RequestOptions } from './core/types.js';
import { AgentAccounts, AgentActions, AgentQuotes, AgentTransfers, type Agent, type AgentDeviceCodeRedemption } from './resources/agents.js';

/** Options of {@link createAgentClient}: those of `createClient`, with the agent's `accessToken` instead of credentials. */
export type AgentClientOptions = Omit<ClientOptions, 'clientId' | 'clientSecret' | 'accessToken'> & { accessToken: string };

/**
 * An agent's view of the API (`/agents/me/*`): its customer's accounts and transactions, quotes, transfers and the
 * actions they become. What the policy forbids rejects with a {@link PermissionDeniedError} (403 `FORBIDDEN`, with
 * `details.rule`); what needs approval comes back PENDING_APPROVAL: wait for it with `actions.waitFor`.
 *
 * ```ts
 * const { client: agent } = await redeemAgentDeviceCode(code, { baseUrl });
 * const quote = await agent.quotes.create({ source: { sourceType: 'ACCOUNT', accountId }, destination, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 2_000 });
 * const action = await agent.actions.waitFor((await agent.quotes.execute(quote.id)).id);
 * ```
 */
export class AgentClient {
  readonly quotes: AgentQuotes;
  readonly transfers: AgentTransfers;
  readonly actions: AgentActions;
  /** Internal and external accounts and transactions of the agent's customer. */
  readonly accounts: AgentAccounts;
  readonly #client: RailyardClient;

  constructor(options: AgentClientOptions) {
    this.#client = new RailyardClient(options);
    this.quotes = new AgentQuotes(this.#client);
    this.transfers = new AgentTransfers(this.#client);
    this.actions = new AgentActions(this.#client, (ms, signal) => this.#client.sleep(ms, signal));
    this.accounts = new AgentAccounts(this.#client);
  }

  /** The agent itself: its policy, and what it spent today and this month. */
  me(options?: RequestOptions): APIPromise<Agent> {
    return this.#client.call(agentSideEndpoints.getAgentMe, {}, options);
  }
}

/** A client for an agent, from its access token. */
export const createAgentClient = (options: AgentClientOptions): AgentClient => new AgentClient(options);

/**
 * Redeems a device code (no credentials needed) and returns the agent's client with the redemption (its `accessToken`
 * is given this once: keep it). A code redeemed already, replaced or expired rejects with a {@link BadRequestError}.
 */
export async function redeemAgentDeviceCode(
  code: string, options: Omit<AgentClientOptions, 'accessToken'> = {},
): Promise<{ client: AgentClient; redemption: AgentDeviceCodeRedemption }> {
  const anonymous = new RailyardClient({ ...options, accessToken: '' });
  const redemption = await anonymous.call(agentEndpoints.redeemAgentDeviceCode, { params: { code } });
  return { client: createAgentClient({ ...options, accessToken: redemption.accessToken }), redemption };
}
