/** Transactions (payments and card transactions): the list with the API's filters, and a transaction's timeline. */
import { paymentEndpoints as paymentSchemas } from '@railyard/contract';
import { controlPlaneEndpoints, paymentEndpoints } from '@railyard/contract/routes';
import { attempt, type ResultOf } from '../api.js';
import { sectionPages, type Page } from '../context.js';
import { listPage } from '../lists.js';
import { badge, facts, href, html, idLink, json, money, refusedNote, section, when, type Html } from '../view.js';

type Transaction = ResultOf<typeof paymentEndpoints.getTransaction>;

/** What moved: the amount sent, or received, or authorized on a card. */
function amountOf(t: Transaction): Html {
  if (t.type === 'CARD') return money(t.authorizedAmount.amount, t.authorizedAmount.currency);
  const amount = t.type === 'OUTGOING' ? t.sentAmount : t.receivedAmount;
  return money(amount.amount, amount.currency);
}

/** The columns every list of transactions shows. */
export const transactionColumns = [
  { label: 'Transaction', cell: (t: Transaction) => idLink(t.id) },
  { label: 'Type', cell: (t: Transaction) => t.type },
  { label: 'Status', cell: (t: Transaction) => badge(t.status) },
  { label: 'Amount', cell: amountOf },
  { label: 'Customer', cell: (t: Transaction) => idLink(t.customerId) },
  { label: 'Created', cell: (t: Transaction) => when(t.createdAt) },
];

const list: Page = async (context) => ({
  title: 'Transactions',
  section: 'transactions',
  body: await listPage(context, 'Transactions', href('transactions'), paymentSchemas.listTransactions,
    (query) => context.api.call(paymentEndpoints.listTransactions, { query }), transactionColumns),
});

/** A status an event announces: the `data.status` of its body. */
const statusIn = (data: unknown): string | undefined => (data as { status?: string } | null)?.status;

const show: Page = async (context, [id]) => {
  if (id === undefined) return undefined;
  const found = await attempt(context.api.call(paymentEndpoints.getTransaction, { params: { transactionId: id } }));
  if (!found.ok) return found.refused.status === 404 ? undefined : { title: 'Transaction', section: 'transactions', body: html`<h1>Transaction</h1>${refusedNote(found.refused)}` };
  const t = found.value;
  const events = await attempt(context.api.call(controlPlaneEndpoints.listSandboxEvents, { query: { resource: id, limit: 100 } }));
  const timeline = !events.ok ? refusedNote(events.refused)
    : events.value.data.length === 0 ? html`<p class="muted">No events were emitted for it (yet).</p>`
      : html`<ol class="timeline" id="timeline">${[...events.value.data].reverse().map((e) => html`<li>${when(e.timestamp)} ${badge(statusIn(e.data))} <a href="${href('events', e.id)}">${e.type}</a>
${e.delivery ? html` <span class="muted">delivery ${e.delivery.status}</span>` : ''}</li>`)}</ol>`;
  const body = html`<h1>${t.type === 'CARD' ? 'Card transaction' : t.type === 'OUTGOING' ? 'Payout' : 'Incoming payment'} ${badge(t.status)}</h1>
<p>${idLink(t.id)}</p>
<div class="grid">
${section('Transaction', facts([
    ['Type', t.type], ['Status', badge(t.status)], ['Amount', amountOf(t)], ['Customer', idLink(t.customerId)],
    ['Card', t.type === 'CARD' ? idLink(t.cardId) : undefined],
    ['Failure', t.type === 'CARD' ? undefined : t.failureReason], ['Created', when(t.createdAt)], ['Settled', t.type === 'CARD' ? undefined : when(t.settledAt)],
  ]))}
${section('Timeline: its states and the events it emitted', timeline, 'events')}
</div>
${section('As the API returns it', json(t))}`;
  return { title: `Transaction ${t.id}`, section: 'transactions', body };
};

/** `transactions` and `transactions/<id>`. */
export const transactionsPage: Page = sectionPages(list, show);
