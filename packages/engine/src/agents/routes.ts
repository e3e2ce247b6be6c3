import { agentEndpoints as e, agentSideEndpoints as me } from '@railyard/contract';
import { bind, type Binding } from '../http/app.js';
import { walletSignatureOf } from '../http/signed.js';
import { approveAction, findAgentAction, listApprovals, rejectAction } from './actions.js';
import { createAgent, deleteAgent, deviceCodeStatus, findAgent, listAgents, policyCurrencyErrors, redeemDeviceCode, regenerateDeviceCode, updateAgent, updatePolicy } from './agents.js';
import {
  createOwnExternalAccount, createOwnQuote, deleteOwnExternalAccount, executeOwnQuote, findOwnExternalAccount, findOwnQuote, findOwnTransaction,
  listActions, listOwnExternalAccounts, listOwnInternalAccounts, listOwnTransactions, ownTransferIn, ownTransferOut,
} from './me.js';

/** The agent an AgentAuth request acts as (set by the HTTP layer for `auth: 'agent'` endpoints). */
const agentOf = (context: { agentId?: string }): string => context.agentId!;

/** HTTP bindings of agents (REFERENCE §20): the platform's side, and the agent's own under /agents/me. */
export const agentRoutes: Binding[] = [
  bind(e.createAgent, ({ tenant, body, permissions }) => createAgent(tenant, body, permissions),
    ({ body }) => policyCurrencyErrors((body as { policy?: unknown } | null)?.policy, 'policy.')),
  bind(e.listAgents, ({ tenant, query }) => listAgents(tenant, query)),
  bind(e.listAgentApprovals, ({ tenant, query }) => listApprovals(tenant, query)),
  bind(e.getAgentById, ({ tenant, params }) => findAgent(tenant, params.agentId)),
  bind(e.updateAgent, ({ tenant, params, body, permissions }) => updateAgent(tenant, params.agentId, body, permissions)),
  bind(e.deleteAgent, ({ tenant, params }) => deleteAgent(tenant, params.agentId)),
  bind(e.updateAgentPolicy, ({ tenant, params, body, permissions }) => updatePolicy(tenant, params.agentId, body, permissions), ({ body }) => policyCurrencyErrors(body)),
  bind(e.regenerateAgentDeviceCode, ({ tenant, params, permissions }) => regenerateDeviceCode(tenant, params.agentId, permissions)),
  bind(e.approveAgentAction, ({ tenant, params }) => approveAction(tenant, params.agentId, params.actionId)),
  bind(e.rejectAgentAction, ({ tenant, params, body }) => rejectAction(tenant, params.agentId, params.actionId, body?.reason)),
  bind(e.getAgentDeviceCodeStatus, ({ tenant, params }) => deviceCodeStatus(tenant, params.code)),
  bind(e.redeemAgentDeviceCode, ({ tenant, params }) => redeemDeviceCode(tenant, params.code)),

  bind(me.getAgentMe, (ctx) => findAgent(ctx.tenant, agentOf(ctx))),
  bind(me.agentListTransactions, (ctx) => listOwnTransactions(ctx.tenant, agentOf(ctx), ctx.query)),
  bind(me.agentGetTransaction, (ctx) => findOwnTransaction(ctx.tenant, agentOf(ctx), ctx.params.transactionId)),
  bind(me.agentCreateQuote, (ctx) => createOwnQuote(ctx.tenant, agentOf(ctx), ctx.body)),
  bind(me.agentGetQuote, (ctx) => findOwnQuote(ctx.tenant, agentOf(ctx), ctx.params.quoteId)),
  bind(me.agentExecuteQuote, (ctx) => executeOwnQuote(ctx.tenant, agentOf(ctx), ctx.params.quoteId, walletSignatureOf(ctx.request))),
  bind(me.agentListActions, (ctx) => listActions(ctx.tenant, agentOf(ctx), ctx.query)),
  bind(me.agentGetAction, (ctx) => findAgentAction(ctx.tenant, agentOf(ctx), ctx.params.actionId)),
  bind(me.agentCreateTransferIn, (ctx) => ownTransferIn(ctx.tenant, agentOf(ctx), ctx.body)),
  bind(me.agentCreateTransferOut, (ctx) => ownTransferOut(ctx.tenant, agentOf(ctx), ctx.body)),
  bind(me.agentListInternalAccounts, (ctx) => listOwnInternalAccounts(ctx.tenant, agentOf(ctx), ctx.query)),
  bind(me.agentListExternalAccounts, (ctx) => listOwnExternalAccounts(ctx.tenant, agentOf(ctx), ctx.query)),
  bind(me.agentCreateExternalAccount, (ctx) => createOwnExternalAccount(ctx.tenant, agentOf(ctx), ctx.body)),
  bind(me.agentGetExternalAccount, (ctx) => findOwnExternalAccount(ctx.tenant, agentOf(ctx), ctx.params.externalAccountId)),
  bind(me.agentDeleteExternalAccount, (ctx) => deleteOwnExternalAccount(ctx.tenant, agentOf(ctx), ctx.params.externalAccountId)),
];
