/** Stablecoins: the list, and a stablecoin's page with its mints and burns, and the funds a pending one waits for. */
import { stablecoinEndpoints } from '@railyard/contract/routes';
import { attempt, type ResultOf } from '../api.js';
import { sectionPages, type DashboardContext, type Page } from '../context.js';
import { listTable, PAGE_SIZE } from '../lists.js';
import { actionForm, badge, facts, href, html, idLink, json, refusedNote, section, when } from '../view.js';

type Operation = ResultOf<typeof stablecoinEndpoints.getStablecoinOperation>;

const list: Page = async (context) => ({
  title: 'Stablecoins',
  section: 'stablecoins',
  body: html`<h1>Stablecoins</h1>${section('Stablecoins', await listTable(context,
    context.api.call(stablecoinEndpoints.listStablecoins, { query: { limit: PAGE_SIZE, cursor: context.queryRecord.cursor } }), [
      { label: 'Stablecoin', cell: (s) => idLink(s.id) }, { label: 'Name', cell: (s) => s.name }, { label: 'Symbol', cell: (s) => s.symbol },
      { label: 'Issuance', cell: (s) => badge(s.issuanceStatus) }, { label: 'Operations', cell: (s) => badge(s.serviceOperationsStatus) },
      { label: 'Created', cell: (s) => when(s.createdAt) },
    ], { path: href('stablecoins'), query: { cursor: context.queryRecord.cursor }, empty: 'No stablecoins registered.' }))}`,
});

/** The funds form of an operation waiting for them. */
const fundForm = (context: DashboardContext, operation: Operation) =>
  operation.status === 'PENDING_FUNDING' && context.can('TRANSACT')
    ? actionForm(context.form, 'stablecoin-fund', 'Deliver the funds', [
      { name: 'operationId', label: '', kind: 'hidden', value: operation.id },
      { name: 'amount', label: 'Amount (empty: as expected)', placeholder: operation.amount },
    ])
    : '';

const show: Page = async (context, [id]) => {
  if (id === undefined) return undefined;
  const found = await attempt(context.api.call(stablecoinEndpoints.getStablecoin, { params: { stablecoinId: id } }));
  if (!found.ok) return found.refused.status === 404 ? undefined : { title: 'Stablecoin', section: 'stablecoins', body: html`<h1>Stablecoin</h1>${refusedNote(found.refused)}` };
  const coin = found.value;
  const operations = await listTable(context,
    context.api.call(stablecoinEndpoints.listStablecoinOperations, { params: { stablecoinId: id }, query: { limit: PAGE_SIZE, cursor: context.queryRecord.cursor } }), [
      { label: 'Operation', cell: (o: Operation) => html`<code>${o.id}</code>` }, { label: 'Type', cell: (o: Operation) => o.operationType },
      { label: 'Status', cell: (o: Operation) => badge(o.status) }, { label: 'Amount', cell: (o: Operation) => `${o.amount} ${coin.symbol}` },
      { label: 'Created', cell: (o: Operation) => when(o.createdAt) }, { label: '', cell: (o: Operation) => fundForm(context, o) },
    ], { path: href('stablecoins', id), query: { cursor: context.queryRecord.cursor }, empty: 'No mints or burns yet.' });
  const body = html`<h1>${coin.name} (${coin.symbol})</h1>
${section('Stablecoin', facts([
    ['Id', idLink(coin.id)], ['Issuance', badge(coin.issuanceStatus)], ['Operations', badge(coin.serviceOperationsStatus)], ['Base currency', coin.baseCurrency],
    ['Network', coin.network], ['Decimals', coin.decimals], ['Provider', coin.provider], ['Provider account', html`<code>${coin.stablecoinProviderAccountId}</code>`],
  ]))}
${section('Mints and burns', operations, 'operations')}
${section('As the API returns it', json(coin))}`;
  return { title: coin.name, section: 'stablecoins', body };
};

/** `stablecoins` and `stablecoins/<id>`. */
export const stablecoinsPage: Page = sectionPages(list, show);
