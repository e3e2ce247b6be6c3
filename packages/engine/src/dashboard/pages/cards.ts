/** Cards: the list, and a card's page with its transactions and every network simulator. */
import { CARD_SIMULATIONS, cardEndpoints as cardSchemas, type CardSimulationKind } from '@railyard/contract';
import { cardEndpoints, paymentEndpoints } from '@railyard/contract/routes';
import { attempt, type ResultOf } from '../api.js';

type Card = ResultOf<typeof cardEndpoints.getCard>;
import { sectionPages, type DashboardContext, type Page } from '../context.js';
import { listPage } from '../lists.js';
import { actionForm, badge, facts, href, html, idLink, json, money, refusedNote, section, table, when, type Field, type Html } from '../view.js';
import { transactionColumns } from './transactions.js';

/** What each simulator's form asks for, as its request body takes it. */
export const SIMULATOR_FIELDS: Readonly<Record<CardSimulationKind, 'authorization' | 'merchant' | 'amount' | 'transaction'>> = {
  authorization: 'authorization', credit_authorization: 'authorization', financial_authorization: 'authorization',
  financial_credit_authorization: 'authorization', credit_authorization_advice: 'authorization', balance_inquiry: 'merchant',
  authorization_advice: 'amount', clearing: 'amount', return: 'amount', return_reversal: 'transaction',
};

const label = (kind: string) => kind.replaceAll('_', ' ');

function simulatorForm(context: DashboardContext, cardId: string, currency: string, kind: CardSimulationKind): Html {
  const needs = SIMULATOR_FIELDS[kind];
  const fields: Field[] = [{ name: 'cardId', label: '', kind: 'hidden', value: cardId }, { name: 'kind', label: '', kind: 'hidden', value: kind }];
  if (needs === 'authorization') {
    fields.push({ name: 'amount', label: 'Amount (minor units)', kind: 'number', value: '1250', required: true }, { name: 'currency', label: 'Currency', value: currency, required: true });
  }
  if (needs === 'authorization' || needs === 'merchant') fields.push({ name: 'merchant', label: 'Merchant', value: 'Coffee Shop', required: true });
  if (needs === 'amount' || needs === 'transaction') fields.push({ name: 'cardTransactionId', label: 'Card transaction', placeholder: 'CardTransaction:…', required: true });
  if (needs === 'amount') fields.push({ name: 'amount', label: 'Amount (minor units)', kind: 'number', value: '1250', required: true });
  return html`<div class="simulator" id="simulate-${kind}"><h3>${label(kind)}</h3>${actionForm(context.form, 'card-simulate', `Simulate ${label(kind)}`, fields)}</div>`;
}

const cardColumns = [
  { label: 'Card', cell: (c: Card) => idLink(c.id) },
  { label: 'State', cell: (c: Card) => badge(c.state) },
  { label: 'Cardholder', cell: (c: Card) => idLink(c.cardholderId) },
  { label: 'Last 4', cell: (c: Card) => c.last4 ?? '' },
  { label: 'Currency', cell: (c: Card) => c.currency },
  { label: 'Created', cell: (c: Card) => when(c.createdAt) },
];

const list: Page = async (context) => ({
  title: 'Cards',
  section: 'cards',
  body: await listPage(context, 'Cards', href('cards'), cardSchemas.listCards, (query) => context.api.call(cardEndpoints.listCards, { query }), cardColumns),
});

const show: Page = async (context, [id]) => {
  if (id === undefined) return undefined;
  const found = await attempt(context.api.call(cardEndpoints.getCard, { params: { cardId: id } }));
  if (!found.ok) return found.refused.status === 404 ? undefined : { title: 'Card', section: 'cards', body: html`<h1>Card</h1>${refusedNote(found.refused)}` };
  const card = found.value;
  // Card transactions are transactions of the cardholder: this card's, from the latest page.
  const transactions = await attempt(context.api.call(paymentEndpoints.listTransactions, { query: { customerId: card.cardholderId, limit: 100 } }));
  const ofCard = transactions.ok ? transactions.value.data.filter((t) => t.type === 'CARD' && t.cardId === card.id) : [];
  const body = html`<h1>Card ${card.last4 ? html`•••• ${card.last4}` : ''} ${badge(card.state)}</h1>
<p>${idLink(card.id)}</p>
<div class="grid">
${section('Card', facts([
    ['State', badge(card.state)], ['State reason', card.stateReason], ['Cardholder', idLink(card.cardholderId)], ['Brand', card.brand], ['Form', card.form],
    ['Currency', card.currency], ['Funding sources', html`${card.fundingSources.map((s) => html`<code>${s}</code> `)}`],
    ['Most per transaction', card.maxSpendPerTransaction === null ? 'no limit' : money(card.maxSpendPerTransaction, card.currency)], ['Created', when(card.createdAt)],
  ]))}
${section('Card transactions', transactions.ok ? table(transactionColumns, ofCard, 'No card transactions yet.') : refusedNote(transactions.refused), 'card-transactions')}
</div>
${section('Simulate network events', context.can('TRANSACT') ? html`<div class="grid">${CARD_SIMULATIONS.map((kind) => simulatorForm(context, card.id, card.currency, kind))}</div>` : html`<p class="muted">Needs TRANSACT.</p>`, 'simulators')}
${section('As the API returns it', json(card))}`;
  return { title: `Card ${card.id}`, section: 'cards', body };
};

/** `cards` and `cards/<id>`. */
export const cardsPage: Page = sectionPages(list, show);
