/**
 * The agent's own operations (REFERENCE §20.2, `/agents/me/*` with its Bearer token): every request acts as the
 * agent's customer under the agent's policy. Accounts a request names must be the customer's; another customer's
 * transactions, accounts, and quotes of another agent are 404. Moving money goes through actions ({@link startAction}).
 */
import type { AgentActionListQuery, AgentExternalAccountCreateRequest, AgentExternalAccountListQuery, AgentInternalAccountListQuery, AgentTransactionListQuery, ExternalAccount, Page, Quote, QuoteRequest, Transaction, TransferInRequest, TransferOutRequest } from '@railyard/contract';
import { z } from 'zod';
import { findInternalAccount, listCustomerInternalAccounts } from '../accounts/internal-accounts.js';
import type { TenantContext } from '../core/context.js';
import { conflict, notFound } from '../core/errors.js';
import { onField } from '../core/store.js';
import { createExternalAccount, deleteExternalAccount, findExternalAccount, listExternalAccounts } from '../external-accounts/external-accounts.js';
import { assertExecutable, checkExecutionSignature, placeQuote, planQuote, retrieveQuote, transferInAmount, transferOutAmount, type QuotePlan } from '../quotes/quotes.js';
import { findTransaction, listTransactions } from '../transactions/transactions.js';
import { listOwnActions, startAction, weighAction } from './actions.js';
import { findAgentRecord, type AgentRecord } from './agents.js';
import { forbidden, requireActive, requireAgentPermission } from './policy.js';

export const AGENT_QUOTES = 'agentQuotes';
/** Which agent created a quote: its id is the quote's. */
export const AgentQuoteRecord = z.object({ id: z.string(), agentId: z.string() });
const agentQuotes = (tenant: TenantContext) => tenant.store.collection<z.infer<typeof AgentQuoteRecord>>(AGENT_QUOTES, { indexes: { agentId: onField('agentId') } });

/** The agent the request acts as (its token was checked; deleted since, it is 404 like any unknown agent). */
export const agentOf = (tenant: TenantContext, agentId: string): AgentRecord => findAgentRecord(tenant, agentId);

/** An internal account of the agent's customer, or 404. */
function ownInternalAccount(tenant: TenantContext, agent: AgentRecord, accountId: string) {
  const account = findInternalAccount(tenant, accountId);
  if (account.customerId !== agent.customerId) throw notFound('Internal account', accountId);
  return account;
}

/** An external account of the agent's customer, or 404. */
function ownExternalAccount(tenant: TenantContext, agent: AgentRecord, accountId: string): ExternalAccount {
  const account = findExternalAccount(tenant, accountId);
  if (account.customerId !== agent.customerId) throw notFound('External account', accountId);
  return account;
}

/** An account of either kind of the agent's customer (its prefix says which), or 404. */
const ownAccount = (tenant: TenantContext, agent: AgentRecord, accountId: string) =>
  accountId.startsWith('ExternalAccount:') ? ownExternalAccount(tenant, agent, accountId) : ownInternalAccount(tenant, agent, accountId);

// ---------------------------------------------------------------------------------------------------------------------
// Reading

export function listOwnTransactions(tenant: TenantContext, agentId: string, query: z.output<typeof AgentTransactionListQuery>): Page<Transaction> {
  return listTransactions(tenant, { ...query, customerId: agentOf(tenant, agentId).customerId, platformCustomerId: undefined });
}

export function findOwnTransaction(tenant: TenantContext, agentId: string, transactionId: string): Transaction {
  const agent = agentOf(tenant, agentId);
  let transaction: Transaction;
  try {
    transaction = findTransaction(tenant, transactionId);
  } catch {
    throw notFound('Transaction', transactionId, 'TRANSACTION_NOT_FOUND');
  }
  if (transaction.customerId !== agent.customerId) throw notFound('Transaction', transactionId, 'TRANSACTION_NOT_FOUND');
  return transaction;
}

export const listOwnInternalAccounts = (tenant: TenantContext, agentId: string, query: z.output<typeof AgentInternalAccountListQuery>) =>
  listCustomerInternalAccounts(tenant, { ...query, customerId: agentOf(tenant, agentId).customerId });

export const listActions = (tenant: TenantContext, agentId: string, query: z.output<typeof AgentActionListQuery>) => {
  agentOf(tenant, agentId);
  return listOwnActions(tenant, agentId, query);
};

// ---------------------------------------------------------------------------------------------------------------------
// Quotes

/** The accounts a quote's ends name (the policy weighs each). */
const accountIdsOf = (quote: Pick<Quote, 'source' | 'destination'>): string[] =>
  [quote.source, quote.destination].flatMap((end) => ('accountId' in end && end.accountId !== undefined ? [end.accountId] : []));

/**
 * `POST /agents/me/quotes` (CREATE_QUOTES): from the customer's accounts, to the customer's or to any UMA address; the
 * transaction is the agent's. With `immediatelyExecute` it is also an execution, and goes the way
 * `POST /agents/me/quotes/{id}/execute` goes: EXECUTE_QUOTES, every rule of the policy weighed before anything is
 * stored, an action recorded (run now, or waiting for approval with the quote PENDING) and its spend counted.
 */
export function createOwnQuote(tenant: TenantContext, agentId: string, request: z.output<typeof QuoteRequest>): Quote {
  const agent = agentOf(tenant, agentId);
  requireActive(agent);
  requireAgentPermission(agent, 'CREATE_QUOTES');
  const { source, destination } = request as { source: { sourceType: string; accountId?: string; customerId?: string }; destination: { destinationType: string; accountId?: string } };
  if (source.sourceType === 'ACCOUNT') ownAccount(tenant, agent, source.accountId!);
  else if (source.customerId !== undefined && source.customerId !== agent.customerId) throw notFound('Customer', source.customerId, 'USER_NOT_FOUND');
  if (destination.destinationType === 'ACCOUNT') ownAccount(tenant, agent, destination.accountId!);
  const sourced = source.sourceType === 'REALTIME_FUNDING' ? { ...request, source: { ...source, customerId: agent.customerId } } : request;
  const plan = planQuote(tenant, sourced as z.output<typeof QuoteRequest>, { agentId });
  if (source.sourceType === 'REALTIME_FUNDING') return realtimeQuote(tenant, agent, plan);
  if (!plan.executeNow) {
    const quote = placeQuote(tenant, plan);
    agentQuotes(tenant).insert({ id: quote.id, agentId });
    return quote;
  }
  const spend = { amount: plan.transaction.sentAmount.amount, currency: plan.transaction.sentAmount.currency.code, accountIds: accountIdsOf(plan.record) };
  const verdict = weighAction(tenant, agent, 'EXECUTE_QUOTE', spend);
  if (!verdict.needsApproval) assertExecutable(tenant, plan);
  const quote = placeQuote(tenant, { ...plan, executeNow: false });
  agentQuotes(tenant).insert({ id: quote.id, agentId });
  startAction(tenant, agent, { type: 'EXECUTE_QUOTE', quoteId: quote.id }, spend, verdict);
  return retrieveQuote(tenant, quote.id);
}

/**
 * An agent's quote funded in real time is an execution too: it runs when its money arrives, with no execute call, so
 * the policy is weighed now (EXECUTE_QUOTES, accounts, limits) and the spend counted now, for as long as the money may
 * come (usage never counts less than the agent may pay). It cannot wait for the platform's approval: a policy that
 * asks for one refuses it (fund it from an account of the customer instead).
 */
function realtimeQuote(tenant: TenantContext, agent: AgentRecord, plan: QuotePlan): Quote {
  const spend = { amount: plan.transaction.sentAmount.amount, currency: plan.transaction.sentAmount.currency.code, accountIds: accountIdsOf(plan.record) };
  const verdict = weighAction(tenant, agent, 'EXECUTE_QUOTE', spend);
  if (verdict.needsApproval) {
    throw forbidden(`A real-time funded payment runs when its money arrives, so it cannot wait for the platform's approval, which agent ${agent.id}'s policy asks for: fund it from an account of the customer`, 'approval');
  }
  const quote = placeQuote(tenant, plan);
  agentQuotes(tenant).insert({ id: quote.id, agentId: agent.id });
  startAction(tenant, agent, { type: 'EXECUTE_QUOTE', quoteId: quote.id }, spend, verdict);
  return retrieveQuote(tenant, quote.id);
}

/** A quote this agent created, or 404 (another agent's is as unknown as none). */
export function findOwnQuote(tenant: TenantContext, agentId: string, quoteId: string): Quote {
  agentOf(tenant, agentId);
  if (agentQuotes(tenant).get(quoteId)?.agentId !== agentId) throw notFound('Quote', quoteId, 'QUOTE_NOT_FOUND');
  return retrieveQuote(tenant, quoteId);
}

/** `POST /agents/me/quotes/{id}/execute` (EXECUTE_QUOTES): an action that runs now or waits for approval. */
export async function executeOwnQuote(tenant: TenantContext, agentId: string, quoteId: string, stamp: string | null) {
  // The policy first: an agent that may not execute learns nothing of the quote.
  const agent = agentOf(tenant, agentId);
  requireActive(agent);
  requireAgentPermission(agent, 'EXECUTE_QUOTES');
  const quote = findOwnQuote(tenant, agentId, quoteId);
  if (quote.source.sourceType === 'REALTIME_FUNDING') {
    throw conflict(`Quote ${quoteId} is funded in real time: it runs when its money arrives at its paymentInstructions, and was weighed as this agent's payment when created`);
  }
  await checkExecutionSignature(tenant, quoteId, stamp);
  return startAction(tenant, agentOf(tenant, agentId), { type: 'EXECUTE_QUOTE', quoteId }, {
    amount: quote.totalSendingAmount, currency: quote.sendingCurrency.code, accountIds: accountIdsOf(quote),
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// Transfers

/** The agent, once the policy lets it start a transfer at all (before any account is looked up). */
function transferring(tenant: TenantContext, agentId: string): AgentRecord {
  const agent = agentOf(tenant, agentId);
  requireActive(agent);
  requireAgentPermission(agent, 'CREATE_TRANSFERS');
  return agent;
}

/** `POST /agents/me/transfer-in` (CREATE_TRANSFERS): from the customer's pullable external account to their internal account. */
export function ownTransferIn(tenant: TenantContext, agentId: string, request: z.output<typeof TransferInRequest>) {
  const agent = transferring(tenant, agentId);
  ownExternalAccount(tenant, agent, request.source.accountId);
  const destination = ownInternalAccount(tenant, agent, request.destination.accountId);
  // As for a transfer-out: the omitted amount is resolved now, weighed, shown and sent as such on approval.
  const amount = transferInAmount(tenant, request);
  return startAction(tenant, agent, { type: 'TRANSFER_IN', request: { ...request, amount } }, {
    amount, currency: destination.balance.currency.code, accountIds: [request.source.accountId, request.destination.accountId],
  });
}

/**
 * `POST /agents/me/transfer-out` (CREATE_TRANSFERS): from the customer's internal account to their external account;
 * without `amount`, its whole available balance.
 */
export function ownTransferOut(tenant: TenantContext, agentId: string, request: z.output<typeof TransferOutRequest>) {
  const agent = transferring(tenant, agentId);
  const source = ownInternalAccount(tenant, agent, request.source.accountId);
  ownExternalAccount(tenant, agent, request.destination.accountId);
  // An omitted amount is resolved now (the source's whole balance) and kept in what the action runs: the policy weighs
  // the money that moves, and an approval later sends that amount, not whatever the balance has become.
  const amount = transferOutAmount(tenant, request);
  return startAction(tenant, agent, { type: 'TRANSFER_OUT', request: { ...request, amount } }, {
    amount, currency: source.balance.currency.code, accountIds: [request.source.accountId, request.destination.accountId],
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// External accounts (MANAGE_EXTERNAL_ACCOUNTS)

function managing(tenant: TenantContext, agentId: string): AgentRecord {
  const agent = agentOf(tenant, agentId);
  requireAgentPermission(agent, 'MANAGE_EXTERNAL_ACCOUNTS');
  return agent;
}

export function listOwnExternalAccounts(tenant: TenantContext, agentId: string, query: z.output<typeof AgentExternalAccountListQuery>): Page<ExternalAccount> {
  return listExternalAccounts(tenant, { ...query, customerId: managing(tenant, agentId).customerId });
}

export function createOwnExternalAccount(tenant: TenantContext, agentId: string, request: z.output<typeof AgentExternalAccountCreateRequest>): ExternalAccount {
  const agent = managing(tenant, agentId);
  requireActive(agent);
  if (request.customerId !== undefined && request.customerId !== agent.customerId) throw notFound('Customer', request.customerId, 'USER_NOT_FOUND');
  return createExternalAccount(tenant, { ...request, customerId: agent.customerId });
}

export const findOwnExternalAccount = (tenant: TenantContext, agentId: string, accountId: string): ExternalAccount =>
  ownExternalAccount(tenant, managing(tenant, agentId), accountId);

export function deleteOwnExternalAccount(tenant: TenantContext, agentId: string, accountId: string): undefined {
  const agent = managing(tenant, agentId);
  requireActive(agent);
  ownExternalAccount(tenant, agent, accountId);
  return deleteExternalAccount(tenant, accountId);
}
