/** Customers: the list with the API's filters, and a customer's page with everything about them. */
import { customerEndpoints as customerSchemas } from '@railyard/contract';
import {
  authEndpoints, beneficialOwnerEndpoints, cardEndpoints, controlPlaneEndpoints, customerEndpoints, documentEndpoints, internalAccountEndpoints,
  paymentEndpoints, verificationEndpoints,
} from '@railyard/contract/routes';
import { attempt, type ResultOf } from '../api.js';
import { sectionPages, type DashboardContext, type Page } from '../context.js';
import { listPage, listTable, PAGE_SIZE } from '../lists.js';
import {
  actionForm, badge, facts, href, html, idLink, json, money, refusedNote, section, table, when, type Html,
} from '../view.js';
import { transactionColumns } from './transactions.js';

type Customer = ResultOf<typeof customerEndpoints.getCustomer>;
type Account = ResultOf<typeof internalAccountEndpoints.listCustomerInternalAccounts>['data'][number];

/** A customer's name: the person's, or the business's legal name. */
export const nameOf = (customer: Customer): string =>
  customer.customerType === 'INDIVIDUAL' ? customer.fullName ?? '' : (customer as { businessInfo?: { legalName?: string } }).businessInfo?.legalName ?? '';

const kycOf = (customer: Customer): string =>
  customer.customerType === 'INDIVIDUAL' ? customer.kycStatus : (customer as { kybStatus?: string }).kybStatus ?? '';

const customerColumns = [
  { label: 'Customer', cell: (c: Customer) => idLink(c.id) },
  { label: 'Platform id', cell: (c: Customer) => c.platformCustomerId },
  { label: 'Type', cell: (c: Customer) => c.customerType },
  { label: 'Name', cell: (c: Customer) => nameOf(c) },
  { label: 'KYC/KYB', cell: (c: Customer) => badge(kycOf(c)) },
  { label: 'Created', cell: (c: Customer) => when(c.createdAt) },
];

const list: Page = async (context) => ({
  title: 'Customers',
  section: 'customers',
  body: await listPage(context, 'Customers', href('customers'), customerSchemas.listCustomers,
    (query) => context.api.call(customerEndpoints.listCustomers, { query }), customerColumns),
});

/** A section from a call that may be refused: the refusal says why, in place of the section's content. */
async function guarded<T>(title: string, call: Promise<T>, show: (value: T) => Html | Promise<Html>, id?: string): Promise<Html> {
  const answer = await attempt(call);
  return section(title, answer.ok ? await show(answer.value) : refusedNote(answer.refused), id);
}

/** An account's balance, wallet credentials and sessions (for embedded wallets), and the fund form. */
async function accountBlock(context: DashboardContext, account: Account): Promise<Html> {
  const wallet = account.type === 'EMBEDDED_WALLET';
  const credentials = wallet ? await attempt(context.api.call(authEndpoints.listAuthCredentials, { query: { accountId: account.id } })) : undefined;
  const sessions = wallet ? await attempt(context.api.call(authEndpoints.listAuthSessions, { query: { accountId: account.id } })) : undefined;
  return html`<article class="account" id="${account.id}"><h3><code>${account.id}</code> ${badge(account.status)}</h3>
${facts([['Type', account.type], ['Balance', money(account.balance.amount, account.balance.currency)], ['Total balance', money(account.totalBalance.amount, account.totalBalance.currency)]])}
${context.can('TRANSACT') ? actionForm(context.form, 'fund-account', 'Fund', [
    { name: 'accountId', label: 'Account', kind: 'hidden', value: account.id },
    { name: 'amount', label: `Amount (minor units of ${account.balance.currency.code})`, kind: 'number', value: '10000', required: true },
  ]) : ''}
${credentials === undefined ? '' : credentials.ok
    ? html`<h4>Wallet credentials</h4>${table([{ label: 'Credential', cell: (c) => html`<code>${c.id}</code>` }, { label: 'Type', cell: (c) => c.type }, { label: 'Nickname', cell: (c) => c.nickname }, { label: 'Created', cell: (c) => when(c.createdAt) }], credentials.value.data, 'No credentials.')}`
    : refusedNote(credentials.refused)}
${sessions === undefined ? '' : sessions.ok
    ? html`<h4>Wallet sessions</h4>${table([{ label: 'Session', cell: (s) => html`<code>${s.id}</code>` }, { label: 'Type', cell: (s) => s.type }, { label: 'Expires', cell: (s) => when(s.expiresAt) }], sessions.value.data, 'No sessions.')}`
    : refusedNote(sessions.refused)}
</article>`;
}

const verificationColumns = [
  { label: 'Verification', cell: (v: { id: string }) => html`<code>${v.id}</code>` },
  { label: 'Status', cell: (v: { verificationStatus: string }) => badge(v.verificationStatus) },
  { label: 'Errors', cell: (v: { errors: { type: string; reason: string; field?: string }[] }) =>
    v.errors.length === 0 ? html`<span class="muted">none</span>` : html`<ul>${v.errors.map((e) => html`<li><code>${e.type}</code>${e.field ? html` ${e.field}` : ''}: ${e.reason}</li>`)}</ul>` },
  { label: 'Created', cell: (v: { createdAt: string }) => when(v.createdAt) },
];

/** The forms that decide a verification in manual review. */
function decideForms(context: DashboardContext, verifications: readonly { id: string; verificationStatus: string }[]): Html {
  const waiting = verifications.filter((v) => v.verificationStatus === 'PENDING_MANUAL_REVIEW');
  if (waiting.length === 0 || !context.can('MANAGE')) return html``;
  return html`${waiting.map((v) => html`<p>Manual review of <code>${v.id}</code>:</p>${(['APPROVED', 'REJECTED', 'HOLD'] as const).map((decision) => actionForm(context.form, 'decide-verification', decision === 'HOLD' ? 'Hold' : decision === 'APPROVED' ? 'Approve' : 'Reject', [
    { name: 'verificationId', label: '', kind: 'hidden', value: v.id }, { name: 'decision', label: '', kind: 'hidden', value: decision },
  ], { secondary: decision !== 'APPROVED' }))}`)}`;
}

const timelineOf = (events: readonly { id: string; type: string; timestamp: string }[]): Html =>
  events.length === 0 ? html`<p class="muted">No events.</p>`
    : html`<ol class="timeline">${[...events].reverse().map((e) => html`<li>${when(e.timestamp)} <a href="${href('events', e.id)}">${e.type}</a></li>`)}</ol>`;

const show: Page = async (context, [id]) => {
  if (id === undefined) return undefined;
  const found = await attempt(context.api.call(customerEndpoints.getCustomer, { params: { customerId: id } }));
  if (!found.ok) {
    if (found.refused.status === 404) return undefined;
    return { title: 'Customer', section: 'customers', body: html`<h1>Customer</h1>${refusedNote(found.refused)}` };
  }
  const customer = found.value;
  const api = context.api;
  const business = customer.customerType === 'BUSINESS';
  const [verifications, history, owners, documents, accounts, cards, transactions] = await Promise.all([
    guarded('Verifications', api.call(verificationEndpoints.listVerifications, { query: { customerId: id, limit: PAGE_SIZE } }),
      (page) => html`${table(verificationColumns, page.data, 'No verification yet.')}${decideForms(context, page.data)}`, 'verifications'),
    guarded(`${business ? 'KYB' : 'KYC'} history`, api.call(controlPlaneEndpoints.listSandboxEvents, { query: { resource: id, limit: 50 } }),
      (page) => timelineOf(page.data), 'history'),
    business ? guarded('Beneficial owners', api.call(beneficialOwnerEndpoints.listBeneficialOwners, { query: { customerId: id, limit: PAGE_SIZE } }),
      (page) => table([{ label: 'Owner', cell: (o) => html`<code>${o.id}</code>` }, { label: 'Name', cell: (o) => (o as { personalInfo?: { fullName?: string } }).personalInfo?.fullName ?? '' }, { label: 'Roles', cell: (o) => ((o as { roles?: string[] }).roles ?? []).join(', ') }, { label: 'Status', cell: (o) => badge((o as { kycStatus?: string }).kycStatus) }], page.data, 'No owners.'), 'owners') : html``,
    guarded('Documents', api.call(documentEndpoints.listDocuments, { query: { documentHolder: id, limit: PAGE_SIZE } }),
      (page) => table([{ label: 'Document', cell: (d) => html`<code>${d.id}</code>` }, { label: 'Type', cell: (d) => d.documentType }, { label: 'Side', cell: (d) => d.side ?? '' }, { label: 'File', cell: (d) => d.fileName }, { label: 'Uploaded', cell: (d) => when(d.createdAt) }], page.data, 'No documents.'), 'documents'),
    guarded('Accounts and balances', api.call(internalAccountEndpoints.listCustomerInternalAccounts, { query: { customerId: id, limit: PAGE_SIZE } }),
      async (page) => page.data.length === 0 ? html`<p class="muted">No accounts.</p>` : html`${await Promise.all(page.data.map((a) => accountBlock(context, a)))}`, 'accounts'),
    guarded('Cards', api.call(cardEndpoints.listCards, { query: { cardholderId: id, limit: PAGE_SIZE } }),
      (page) => table([{ label: 'Card', cell: (c) => idLink(c.id) }, { label: 'State', cell: (c) => badge(c.state) }, { label: 'Last 4', cell: (c) => c.last4 ?? '' }, { label: 'Currency', cell: (c) => c.currency }], page.data, 'No cards.'), 'cards'),
    section('Transactions', await listTable(context, api.call(paymentEndpoints.listTransactions, { query: { customerId: id, limit: 10 } }), transactionColumns,
      { empty: 'No transactions.' }), 'transactions'),
  ]);
  const body = html`<h1>${nameOf(customer) || customer.id}</h1>
<p>${idLink(customer.id)} ${badge(kycOf(customer))}</p>
<div class="grid">
${section('Customer', facts([
    ['Type', customer.customerType], ['Platform customer id', customer.platformCustomerId], ['UMA address', customer.umaAddress],
    ['Email', customer.email], ['Region', customer.region], ['Currencies', customer.currencies.join(', ')],
    [business ? 'KYB status' : 'KYC status', badge(kycOf(customer))], ['Created', when(customer.createdAt)], ['Updated', when(customer.updatedAt)],
    ['Deleted', customer.isDeleted ? 'yes' : undefined],
  ]))}
${history}
${section('Simulate an incoming UMA payment', context.can('TRANSACT') ? actionForm(context.form, 'incoming-uma', 'Receive', [
    { name: 'customerId', label: '', kind: 'hidden', value: customer.id },
    { name: 'senderUmaAddress', label: 'Sender UMA address', value: '$sender@uma.example', required: true },
    { name: 'receivingCurrencyCode', label: 'Currency', value: customer.currencies[0] ?? 'USD', required: true },
    { name: 'receivingCurrencyAmount', label: 'Amount (minor units)', kind: 'number', value: '5000', required: true },
  ]) : html`<p class="muted">Needs TRANSACT.</p>`)}
</div>
${verifications}${owners}${documents}${accounts}${cards}${transactions}
${section('As the API returns it', json(customer))}`;
  return { title: nameOf(customer) || customer.id, section: 'customers', body };
};

/** `customers` and `customers/<id>`. */
export const customersPage: Page = sectionPages(list, show);

