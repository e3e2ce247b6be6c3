/**
 * Agent actions (REFERENCE §20.5): what an agent starts that moves money (executing a quote, a transfer in or out).
 * Under its policy an action runs at once (APPROVED, with its transaction), or waits for the platform
 * (PENDING_APPROVAL, and AGENT_ACTION.PENDING_APPROVAL), which approves it (it runs then, checked again against the
 * latest policy and accounts: APPROVED, or FAILED) or rejects it (REJECTED, with the reason). An agent-started
 * transaction waiting for approval can also be approved or rejected by its transaction id (SPEC §4.5).
 */
import type { AgentAction, AgentApprovalListQuery, Page, Transaction, TransferInRequest, TransferOutRequest } from '@railyard/contract';
import { AgentAction as AgentActionSchema } from '@railyard/contract';
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { ApiError, conflict, notFound } from '../core/errors.js';
import { definedOnly, listPage, rangeEnd, rangeStart } from '../core/pagination.js';
import { onField } from '../core/store.js';
import { findCustomer } from '../customers/customers.js';
import { executeQuote, retrieveQuote, transferIn, transferOut } from '../quotes/quotes.js';
import { findTransaction } from '../transactions/transactions.js';
import { countSpend, findAgentRecord, type AgentRecord } from './agents.js';
import { requireActive, requireAgentPermission, weigh, type Spend } from './policy.js';

export const AGENT_ACTIONS = 'agentActions';

/** What an action runs: a quote to execute, or a transfer request as the agent sent it. */
const ActionRun = z.discriminatedUnion('type', [
  z.object({ type: z.literal('EXECUTE_QUOTE'), quoteId: z.string() }),
  z.object({ type: z.literal('TRANSFER_IN'), request: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal('TRANSFER_OUT'), request: z.record(z.string(), z.unknown()) }),
]);
type ActionRun = z.infer<typeof ActionRun>;

/** An action as kept: the API's fields, what it runs, what it weighs against the limits, whether it waited for approval. */
export const AgentActionRecord = AgentActionSchema.extend({
  run: ActionRun,
  spend: z.object({ amount: z.number().int().min(0), currency: z.string(), accountIds: z.array(z.string()) }),
  neededApproval: z.boolean(),
  /** The transaction an executed quote makes (known from the quote), to approve the action by it. */
  transactionId: z.string().optional(),
});
type AgentActionRecord = z.infer<typeof AgentActionRecord>;

const actions = (tenant: TenantContext) => tenant.store.collection<AgentActionRecord>(AGENT_ACTIONS, {
  indexes: { agentId: onField('agentId'), customerId: onField('customerId'), status: onField('status'), neededApproval: onField('neededApproval'), transactionId: onField('transactionId') },
  createdAt: (a) => Date.parse(a.createdAt),
});

const view = ({ run: _run, spend: _spend, neededApproval: _waited, transactionId: _transaction, ...action }: AgentActionRecord): AgentAction => action;

/**
 * Runs what an action runs: the transaction it made, the agent's (its `agentId`). A quote funded in real time is not
 * executed by call: it runs when its money arrives, and its transaction is the one the action shows.
 */
function perform(tenant: TenantContext, agentId: string, run: ActionRun): Transaction {
  if (run.type === 'EXECUTE_QUOTE') {
    const quote = retrieveQuote(tenant, run.quoteId);
    return findTransaction(tenant, quote.source.sourceType === 'REALTIME_FUNDING' ? quote.transactionId : executeQuote(tenant, run.quoteId).transactionId);
  }
  if (run.type === 'TRANSFER_IN') return transferIn(tenant, run.request as z.output<typeof TransferInRequest>, { agentId });
  return transferOut(tenant, run.request as z.output<typeof TransferOutRequest>, { agentId });
}

/** The permission an action needs of the agent's policy (REFERENCE §20.2). */
export const permissionOf = (type: ActionRun['type']) => (type === 'EXECUTE_QUOTE' ? 'EXECUTE_QUOTES' : 'CREATE_TRANSFERS');

/** What the action shows of what it does: the quote, or the transfer's details. */
function detailsOf(tenant: TenantContext, run: ActionRun, spend: Spend): Pick<AgentAction, 'quote' | 'transferDetails'> {
  if (run.type === 'EXECUTE_QUOTE') return { quote: retrieveQuote(tenant, run.quoteId) };
  const request = run.request as { source: { accountId: string }; destination: { accountId: string }; amount: number };
  return { transferDetails: { amount: request.amount, currency: spend.currency, sourceAccountId: request.source.accountId, destinationAccountId: request.destination.accountId } };
}

/**
 * What the policy says of an action before anything is stored: 403 when it refuses (paused, without the permission,
 * an account or a limit it does not allow); else whether it waits for approval, and what it counts.
 */
export function weighAction(tenant: TenantContext, agent: AgentRecord, type: ActionRun['type'], spend: Spend): ReturnType<typeof weigh> {
  requireActive(agent);
  requireAgentPermission(agent, permissionOf(type));
  return weigh(tenant, agent, spend);
}

/**
 * Starts an action of the agent: 403 when the policy refuses it; it runs now (an error of the payment is the answer,
 * and nothing is kept), or waits for approval. `verdict` is the policy's, when the caller weighed it already.
 */
export function startAction(tenant: TenantContext, agent: AgentRecord, run: ActionRun, spend: Spend, verdict = weighAction(tenant, agent, run.type, spend)): AgentAction {
  const { needsApproval, counted } = verdict;
  const now = tenant.nowIso();
  const details = detailsOf(tenant, run, spend);
  const record: AgentActionRecord = {
    id: tenant.ids('AgentAction'), agentId: agent.id, customerId: agent.customerId, platformCustomerId: findCustomer(tenant, agent.customerId).platformCustomerId,
    status: 'PENDING_APPROVAL', type: run.type, ...details, createdAt: now, updatedAt: now,
    run, spend: { ...spend, accountIds: [...spend.accountIds] }, neededApproval: needsApproval,
    ...(details.quote === undefined ? {} : { transactionId: details.quote.transactionId }),
  };
  if (needsApproval) {
    actions(tenant).insert(record);
    tenant.emit('AGENT_ACTION.PENDING_APPROVAL', view(record));
    return view(record);
  }
  const transaction = perform(tenant, agent.id, run);
  countSpend(tenant, agent.id, counted);
  return view(actions(tenant).insert({ ...record, ...detailsOf(tenant, run, spend), status: 'APPROVED', transaction }));
}

/** An action of the agent, or 404 (another agent's is as unknown as none). */
function findOwn(tenant: TenantContext, agentId: string, actionId: string): AgentActionRecord {
  const found = actions(tenant).get(actionId);
  if (!found || found.agentId !== agentId) throw notFound('Agent action', actionId);
  return found;
}

export const findAgentAction = (tenant: TenantContext, agentId: string, actionId: string): AgentAction => view(findOwn(tenant, agentId, actionId));

function requirePending(record: AgentActionRecord): void {
  if (record.status !== 'PENDING_APPROVAL') throw conflict(`Action ${record.id} is ${record.status}: only PENDING_APPROVAL can be approved or rejected`);
}

function save(tenant: TenantContext, record: AgentActionRecord, changes: Partial<AgentActionRecord>): AgentActionRecord {
  const updated = { ...record, ...changes, updatedAt: tenant.nowIso() };
  actions(tenant).replace(updated);
  return updated;
}

/**
 * Approves a pending action: it runs now, checked again against the agent's latest policy and the accounts as they
 * are; APPROVED with its transaction, or FAILED with the reason (the quote expired, the money is short, the policy
 * now refuses it, the agent was deleted).
 */
export function approveAction(tenant: TenantContext, agentId: string, actionId: string): AgentAction {
  const record = findOwn(tenant, agentId, actionId);
  requirePending(record);
  let agent: AgentRecord;
  try {
    agent = findAgentRecord(tenant, agentId);
  } catch {
    return view(save(tenant, record, { status: 'FAILED', failureReason: `agent ${agentId} was deleted` }));
  }
  try {
    requireAgentPermission(agent, permissionOf(record.run.type));
    const { counted } = weigh(tenant, agent, record.spend);
    const transaction = perform(tenant, agentId, record.run);
    countSpend(tenant, agentId, counted);
    return view(save(tenant, record, { ...detailsOf(tenant, record.run, record.spend), status: 'APPROVED', transaction }));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return view(save(tenant, record, { status: 'FAILED', failureReason: `${error.code}: ${error.message}` }));
  }
}

/** Rejects a pending action: REJECTED, the reason kept. */
export function rejectAction(tenant: TenantContext, agentId: string, actionId: string, reason: string | undefined): AgentAction {
  const record = findOwn(tenant, agentId, actionId);
  requirePending(record);
  return view(save(tenant, record, { status: 'REJECTED', ...(reason === undefined ? {} : { rejectionReason: reason }) }));
}

/**
 * The pending agent action behind a transaction id (SPEC §4.5: `POST /transactions/{id}/approve` approves an
 * agent-initiated transaction): a quote execution waiting for approval, by the id of the transaction its quote made.
 * (A transfer has no transaction until it runs: it is approved through its action.)
 */
const pendingActionFor = (tenant: TenantContext, transactionId: string): AgentActionRecord | undefined =>
  actions(tenant).findBy('transactionId', transactionId).find((action) => action.status === 'PENDING_APPROVAL');

/** `GET /agents/approvals`: the actions that waited for approval, any status. */
export function listApprovals(tenant: TenantContext, query: z.output<typeof AgentApprovalListQuery>): Page<AgentAction> {
  return listPage(actions(tenant), query, {
    where: definedOnly({ neededApproval: true, agentId: query.agentId, customerId: query.customerId }),
    createdFrom: query.startDate === undefined ? undefined : rangeStart(query.startDate),
    createdTo: query.endDate === undefined ? undefined : rangeEnd(query.endDate),
    descending: query.sortOrder !== 'asc',
  }, view);
}

/** `GET /agents/me/actions`: the agent's own, newest first. */
export function listOwnActions(tenant: TenantContext, agentId: string, query: { limit: number; cursor?: string | undefined; status?: AgentAction['status'] | undefined }): Page<AgentAction> {
  return listPage(actions(tenant), query, { where: definedOnly({ agentId, status: query.status }) }, view);
}

/**
 * `POST /transactions/{id}/approve` and `/reject` for an agent-initiated transaction waiting for the platform: the
 * transaction the action made, once approved (409 when it could not run, with why), or its quote's transaction as it
 * stands once rejected; undefined when no agent action waits behind the id.
 */
export function decideAgentTransaction(tenant: TenantContext, transactionId: string, decision: 'approve' | 'reject', reason?: string): Transaction | undefined {
  const pending = pendingActionFor(tenant, transactionId);
  if (pending === undefined) return undefined;
  if (decision === 'reject') {
    rejectAction(tenant, pending.agentId, pending.id, reason);
    return findTransaction(tenant, transactionId);
  }
  const decided = approveAction(tenant, pending.agentId, pending.id);
  if (decided.transaction === undefined) {
    throw conflict(`Agent action ${pending.id} was approved but could not run: ${decided.failureReason}`, 'CONFLICT', { agentActionId: pending.id, status: decided.status });
  }
  return decided.transaction;
}
