import { cardControlEndpoints as control, cardEndpoints as e, type CardSimulationKind, type Endpoint } from '@railyard/contract';
import { bind, HttpResult, type Binding } from '../http/app.js';
import { activationJob, CARD_ACTIVATION_JOB, createCard, findCard, listCards, requireCardIssuer, revealCard } from './cards.js';
import { CARD_EXPIRY_JOB, CARD_PULL_JOB, expiryJob, findSimulation, pullJob, simulate, updateCardOnNetwork } from './network.js';
import { showRevealPage } from './reveal-page.js';

const issuer = ({ tenant }: { tenant: Parameters<typeof requireCardIssuer>[0] }) => requireCardIssuer(tenant);

/** The simulator endpoints, each with the event kind its path names. */
const SIMULATORS: readonly Endpoint[] = Object.values(e).filter((endpoint) => endpoint.path.startsWith('/sandbox/cards/'));

/** HTTP bindings of cards (REFERENCE §15) and the sandbox card network (§16). */
export const cardRoutes: Binding[] = [
  bind(e.createCard, ({ tenant, body }) => createCard(tenant, body), issuer),
  bind(e.listCards, ({ tenant, query }) => listCards(tenant, query), issuer),
  bind(e.getCard, ({ tenant, params }) => findCard(tenant, params.cardId), issuer),
  bind(e.updateCard, ({ tenant, params, body }) => updateCardOnNetwork(tenant, params.cardId, body), issuer),
  bind(e.revealCard, ({ tenant, params, request }) => revealCard(tenant, params.cardId, tenant.platform.clientId, new URL(request.url).origin), issuer),
  ...SIMULATORS.map((endpoint) => {
    const kind = endpoint.path.slice(endpoint.path.lastIndexOf('/') + 1) as CardSimulationKind;
    return bind(endpoint, ({ tenant, params, body }) => new HttpResult(202, simulate(tenant, (params as { cardId: string }).cardId, kind, body)));
  }),
  bind(control.getCardSimulation, ({ tenant, params }) => findSimulation(tenant, params.issuerTransactionToken)),
  bind(control.getCardRevealPage, ({ tenant, params }) => showRevealPage(tenant, params.token)),
];

/** Timed jobs of cards, by kind. */
export const cardJobs = { [CARD_ACTIVATION_JOB]: activationJob, [CARD_PULL_JOB]: pullJob, [CARD_EXPIRY_JOB]: expiryJob };
