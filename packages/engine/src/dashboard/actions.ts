/**
 * What the dashboard's forms do, each one API or control-plane call (the same operation a client would make; the API
 * checks the credential, validates and answers). A form's fields become the call's body as the API takes it; what the
 * API refuses comes back to the page as its message, with every refused field.
 */
import { CARD_SIMULATIONS, type CardSimulationKind } from '@railyard/contract';
import {
  agentEndpoints, cardControlEndpoints, cardEndpoints, controlPlaneEndpoints, internalAccountEndpoints, stablecoinControlEndpoints, umaEndpoints,
  verificationEndpoints, webhookEndpoints, type Route,
} from '@railyard/contract/routes';
import { parseDuration } from '../cli/duration.js';
import { ApiRefusal } from './api.js';
import type { Action, FormFields } from './context.js';
import { SIMULATOR_FIELDS } from './pages/cards.js';

/** A field the form must have (the API is the judge of its value). */
function required(fields: FormFields, name: string): string {
  const value = fields[name]?.trim();
  if (value === undefined || value === '') throw new ApiRefusal(400, 'INVALID_INPUT', 'The form is missing a value', [{ field: name, message: 'is required' }]);
  return value;
}

/** A number field as the API takes it: the number when the text is one, else the text (and the API says why not). */
function numeric(fields: FormFields, name: string): number | string {
  const text = required(fields, name);
  const value = Number(text);
  return Number.isFinite(value) && text !== '' ? value : text;
}

/** The simulator route of a kind, from the card routes' paths. */
const SIMULATOR_ROUTES = new Map<string, Route>(
  Object.values(cardEndpoints).flatMap((route: Route) => {
    const kind = route.path.slice(route.path.lastIndexOf('/') + 1);
    return route.path.includes('/simulate/') && (CARD_SIMULATIONS as readonly string[]).includes(kind) ? [[kind, route] as const] : [];
  }),
);

/** The body of a simulator's call, from its form. */
function simulationBody(kind: CardSimulationKind, fields: FormFields): Record<string, unknown> {
  switch (SIMULATOR_FIELDS[kind]) {
    case 'authorization':
      return { amount: numeric(fields, 'amount'), currency: { code: required(fields, 'currency') }, merchant: { descriptor: required(fields, 'merchant') } };
    case 'merchant':
      return { merchant: { descriptor: required(fields, 'merchant') } };
    case 'amount':
      return { cardTransactionId: required(fields, 'cardTransactionId'), amount: numeric(fields, 'amount') };
    case 'transaction':
      return { cardTransactionId: required(fields, 'cardTransactionId') };
  }
}

/** Every action, by the name its form posts to (`/_sandbox/dashboard/actions/<name>`). */
export const ACTIONS: Readonly<Record<string, Action>> = {
  'advance-clock': {
    async run({ api }, fields) {
      const by = required(fields, 'by');
      const ms = parseDuration(by);
      if (ms === undefined) throw new ApiRefusal(400, 'INVALID_INPUT', 'Not a duration', [{ field: 'by', message: 'must be like 30s, 6m, 2h, 1d, or a number of milliseconds' }]);
      const clock = await api.call(controlPlaneEndpoints.advanceSandboxClock, { body: { ms } });
      return `The clock moved on by ${by}: it is now ${clock.now}.`;
    },
  },
  'fund-account': {
    async run({ api }, fields) {
      const accountId = required(fields, 'accountId');
      const account = await api.call(internalAccountEndpoints.fundSandboxInternalAccount, { params: { accountId }, body: { amount: numeric(fields, 'amount') } });
      return `Funded ${accountId}: its balance is now ${account.balance.amount} (minor units of ${account.balance.currency.code}).`;
    },
  },
  'incoming-uma': {
    async run({ api }, fields) {
      const transaction = await api.call(umaEndpoints.sandboxUmaReceive, {
        body: {
          senderUmaAddress: required(fields, 'senderUmaAddress'), customerId: required(fields, 'customerId'),
          receivingCurrencyCode: required(fields, 'receivingCurrencyCode'), receivingCurrencyAmount: numeric(fields, 'receivingCurrencyAmount'),
        },
      });
      return `An incoming UMA payment arrived: ${transaction.id} (${transaction.status}).`;
    },
  },
  'decide-verification': {
    async run({ api }, fields) {
      const verification = await api.call(verificationEndpoints.decideSandboxVerification, {
        params: { verificationId: required(fields, 'verificationId') }, body: { decision: required(fields, 'decision') },
      });
      return `Verification ${verification.id} is now ${verification.verificationStatus}.`;
    },
  },
  'card-simulate': {
    async run({ api }, fields) {
      const kind = required(fields, 'kind');
      const route = SIMULATOR_ROUTES.get(kind);
      if (route === undefined) throw new ApiRefusal(400, 'INVALID_INPUT', 'No such simulator', [{ field: 'kind', message: `must be one of ${CARD_SIMULATIONS.join(', ')}` }]);
      const accepted = await api.call(route as typeof cardEndpoints.simulateCardAuthorization, {
        params: { cardId: required(fields, 'cardId') }, body: simulationBody(kind as CardSimulationKind, fields),
      });
      const result = await api.call(cardControlEndpoints.getCardSimulation, { params: { issuerTransactionToken: accepted.issuerTransactionToken } }).catch(() => undefined);
      const outcome = result === undefined ? 'its result follows' : `${result.outcome}${result.declineReason ? ` (${result.declineReason})` : ''}${result.cardTransactionId ? `, card transaction ${result.cardTransactionId}` : ''}`;
      return `Simulated ${kind.replaceAll('_', ' ')} (issuer token ${accepted.issuerTransactionToken}): ${outcome}.`;
    },
  },
  'stablecoin-fund': {
    async run({ api }, fields) {
      const amount = fields.amount?.trim();
      const operation = await api.call(stablecoinControlEndpoints.fundStablecoinOperation, {
        params: { stablecoinOperationId: required(fields, 'operationId') }, ...(amount ? { body: { amount } } : {}),
      });
      return `Funds delivered to ${operation.id}: it is now ${operation.status}.`;
    },
  },
  'agent-approve': {
    async run({ api }, fields) {
      const action = await api.call(agentEndpoints.approveAgentAction, { params: { agentId: required(fields, 'agentId'), actionId: required(fields, 'actionId') } });
      return `Agent action ${action.id} is now ${action.status}.`;
    },
  },
  'agent-reject': {
    async run({ api }, fields) {
      const action = await api.call(agentEndpoints.rejectAgentAction, { params: { agentId: required(fields, 'agentId'), actionId: required(fields, 'actionId') } });
      return `Agent action ${action.id} is now ${action.status}.`;
    },
  },
  redeliver: {
    async run({ api }, fields) {
      const event = await api.call(controlPlaneEndpoints.redeliverSandboxEvent, { params: { eventId: required(fields, 'eventId') } });
      const last = event.deliveries[event.deliveries.length - 1];
      return `Sent ${event.id} again: ${last === undefined ? 'not answered yet' : last.status === undefined ? `not delivered (${last.error ?? 'no answer'})` : `the endpoint answered ${last.status}`}.`;
    },
  },
  'webhook-test': {
    async run({ api }) {
      await api.call(webhookEndpoints.sandboxWebhookTest);
      return 'A TEST event was sent to the webhook endpoint.';
    },
  },
  reset: {
    async run({ api }) {
      await api.call(controlPlaneEndpoints.resetSandbox);
      return "The platform was reset: its data, tokens and agents are gone; its credentials and options stay.";
    },
  },
  restore: {
    async run({ api }, _fields, file) {
      if (file === undefined || file.text === '') throw new ApiRefusal(400, 'INVALID_INPUT', 'No snapshot file was sent', [{ field: 'snapshot', message: 'is required' }]);
      await api.call(controlPlaneEndpoints.restoreSandbox, { rawBody: file.text });
      return 'The platform was restored from the snapshot.';
    },
  },
};
