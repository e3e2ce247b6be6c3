/** Who else acts for the platform: API tokens, agents (their policy, usage and pending actions) and invitations. */
import { agentEndpoints, invitationEndpoints, tokenEndpoints } from '@railyard/contract/routes';
import { attempt, type ResultOf } from '../api.js';
import { sectionPages, type DashboardContext, type Page } from '../context.js';
import { listTable, PAGE_SIZE } from '../lists.js';
import { actionForm, badge, facts, html, idLink, json, money, refusedNote, section, when, type Html } from '../view.js';

type AgentAction = ResultOf<typeof agentEndpoints.approveAgentAction>;

/** Approve and reject forms of an action waiting for approval. */
const decideAction = (context: DashboardContext, action: AgentAction): Html =>
  action.status === 'PENDING_APPROVAL' && context.can('TRANSACT')
    ? html`${actionForm(context.form, 'agent-approve', 'Approve', [{ name: 'agentId', label: '', kind: 'hidden', value: action.agentId }, { name: 'actionId', label: '', kind: 'hidden', value: action.id }])}
${actionForm(context.form, 'agent-reject', 'Reject', [{ name: 'agentId', label: '', kind: 'hidden', value: action.agentId }, { name: 'actionId', label: '', kind: 'hidden', value: action.id }], { secondary: true })}`
    : html``;

const actionColumns = (context: DashboardContext) => [
  { label: 'Action', cell: (a: AgentAction) => html`<code>${a.id}</code>` }, { label: 'Type', cell: (a: AgentAction) => a.type },
  { label: 'Status', cell: (a: AgentAction) => badge(a.status) }, { label: 'Agent', cell: (a: AgentAction) => idLink(a.agentId) },
  { label: 'Amount', cell: (a: AgentAction) => a.transferDetails ? money(a.transferDetails.amount, a.transferDetails.currency) : a.quote ? money(a.quote.totalSendingAmount, a.quote.sendingCurrency) : '' },
  { label: 'Created', cell: (a: AgentAction) => when(a.createdAt) }, { label: '', cell: (a: AgentAction) => decideAction(context, a) },
];

const overview: Page = async (context) => {
  const [tokens, agents, approvals, invitations] = await Promise.all([
    listTable(context, context.api.call(tokenEndpoints.listTokens, { query: { limit: PAGE_SIZE } }), [
      { label: 'Token', cell: (t) => html`<code>${t.id}</code>` }, { label: 'Name', cell: (t) => t.name },
      { label: 'Permissions', cell: (t) => t.permissions.join(', ') }, { label: 'Client id', cell: (t) => html`<code>${t.clientId}</code>` },
      { label: 'Created', cell: (t) => when(t.createdAt) },
    ], { empty: 'No API tokens.' }),
    listTable(context, context.api.call(agentEndpoints.listAgents, { query: { limit: PAGE_SIZE } }), [
      { label: 'Agent', cell: (a) => idLink(a.id) }, { label: 'Name', cell: (a) => a.name }, { label: 'Customer', cell: (a) => idLink(a.customerId) },
      { label: 'State', cell: (a) => badge(a.isPaused ? 'PAUSED' : a.isConnected ? 'ACTIVE' : 'NOT_CONNECTED') },
      { label: 'Spent today', cell: (a) => String(a.usage.dailySpend) }, { label: 'Created', cell: (a) => when(a.createdAt) },
    ], { empty: 'No agents.' }),
    listTable(context, context.api.call(agentEndpoints.listAgentApprovals, { query: { limit: PAGE_SIZE } }), actionColumns(context), { empty: 'No actions waited for approval.' }),
    listTable(context, context.api.call(invitationEndpoints.listSandboxInvitations, { query: { limit: PAGE_SIZE } }), [
      { label: 'Code', cell: (i) => html`<code>${i.code}</code>` }, { label: 'Status', cell: (i) => badge(i.status) },
      { label: 'Inviter', cell: (i) => i.inviterUma }, { label: 'Invitee', cell: (i) => i.inviteeUma ?? '' }, { label: 'Created', cell: (i) => when(i.createdAt) },
    ], { empty: 'No invitations.' }),
  ]);
  return {
    title: 'Tokens & agents',
    section: 'access',
    body: html`<h1>Tokens, agents and invitations</h1>${section('API tokens', tokens, 'tokens')}${section('Agents', agents, 'agents')}${section('Agent actions for approval', approvals, 'approvals')}${section('Invitations', invitations, 'invitations')}`,
  };
};

const agentPage: Page = async (context, [id]) => {
  if (id === undefined) return undefined;
  const found = await attempt(context.api.call(agentEndpoints.getAgentById, { params: { agentId: id } }));
  if (!found.ok) return found.refused.status === 404 ? undefined : { title: 'Agent', section: 'access', body: html`<h1>Agent</h1>${refusedNote(found.refused)}` };
  const agent = found.value;
  const actions = await listTable(context, context.api.call(agentEndpoints.listAgentApprovals, { query: { agentId: id, limit: PAGE_SIZE } }), actionColumns(context), { empty: 'No actions waited for approval.' });
  const body = html`<h1>${agent.name}</h1>
<div class="grid">
${section('Agent', facts([['Id', html`<code>${agent.id}</code>`], ['Customer', idLink(agent.customerId)], ['Paused', agent.isPaused ? 'yes' : 'no'], ['Connected', agent.isConnected ? 'yes' : 'no'], ['Created', when(agent.createdAt)]]))}
${section('Usage', facts([['Transactions today', agent.usage.dailyTransactionCount], ['Spent today', agent.usage.dailySpend], ['Spent this month', agent.usage.monthlySpend], ['Day resets', agent.usage.dailyResetDate]]))}
</div>
${section('Policy', json(agent.policy), 'policy')}
${section('Actions for approval', actions, 'actions')}`;
  return { title: agent.name, section: 'access', body };
};

export const accessPage: Page = sectionPages(overview);
export const agentsPage: Page = sectionPages(undefined, agentPage);
