/** The overview (counts, the clock and what it will run next), the sandbox's controls, and the live feed. */
import {
  agentEndpoints, cardEndpoints, controlPlaneEndpoints, customerEndpoints, paymentEndpoints, stablecoinEndpoints, tokenEndpoints, type Route,
} from '@railyard/contract/routes';
import { parseDuration } from '../../cli/duration.js';
import { attempt, type ResultOf } from '../api.js';
import { sectionPages, type DashboardContext, type Page } from '../context.js';
import { listTable } from '../lists.js';
import { actionForm, facts, href, html, idLink, refusedNote, section, when, type Html } from '../view.js';

type Job = ResultOf<typeof controlPlaneEndpoints.listSandboxJobs>['data'][number];

const jobColumns = [
  { label: 'Runs at', cell: (j: Job) => when(j.runAt) }, { label: 'What', cell: (j: Job) => j.kind }, { label: 'On', cell: (j: Job) => idLink(j.resource) },
];

/** What the dashboard counts, each with the list it counts and the page that shows it. */
const COUNTED: readonly (readonly [label: string, route: Route, page: string])[] = [
  ['Customers', customerEndpoints.listCustomers, 'customers'], ['Transactions', paymentEndpoints.listTransactions, 'transactions'],
  ['Cards', cardEndpoints.listCards, 'cards'], ['Stablecoins', stablecoinEndpoints.listStablecoins, 'stablecoins'],
  ['Events', controlPlaneEndpoints.listSandboxEvents, 'webhooks'], ['API tokens', tokenEndpoints.listTokens, 'access'], ['Agents', agentEndpoints.listAgents, 'access'],
];

/** A count from a list's `totalCount` (one item read), or a dash where the credential may not read it. */
async function countOf(context: DashboardContext, route: Route): Promise<string> {
  const answer = await attempt(context.api.call(route as typeof customerEndpoints.listCustomers, { query: { limit: 1 } }));
  return answer.ok ? String(answer.value.totalCount) : '—';
}

/** The clock and its next jobs (those due within `within` ms when given). */
async function clockSection(context: DashboardContext, within?: number): Promise<Html> {
  const clock = await attempt(context.api.call(controlPlaneEndpoints.getSandboxClock));
  if (!clock.ok) return section('Clock', refusedNote(clock.refused), 'clock');
  const dueBefore = within === undefined ? undefined : new Date(Date.parse(clock.value.now) + within).toISOString();
  const jobs = await listTable(context, context.api.call(controlPlaneEndpoints.listSandboxJobs, { query: { limit: 10, dueBefore } }), jobColumns,
    { empty: within === undefined ? 'Nothing is scheduled.' : 'Nothing would run.' });
  return section('Clock', html`${facts([['Now', when(clock.value.now)], ['Mode', clock.value.mode]])}
<h3>${within === undefined ? 'Next jobs' : `What an advance of ${context.queryRecord.preview} runs`}</h3>${jobs}`, 'clock');
}

const overview: Page = async (context) => {
  const counts = await Promise.all(COUNTED.map(async ([label, route, page]) => ({ label, page, count: await countOf(context, route) })));
  const body = html`<h1>Overview</h1>
<p class="muted">Platform <code>${context.session.signer.platformId}</code></p>
<ul class="counts" id="counts">${counts.map((c) => html`<li><a href="${href(c.page)}"><strong>${c.count}</strong>${c.label}</a></li>`)}</ul>
${await clockSection(context)}`;
  return { title: 'Overview', section: '', body };
};

const sandbox: Page = async (context) => {
  const preview = context.queryRecord.preview;
  const within = preview === undefined ? undefined : parseDuration(preview);
  const advance = context.can('MANAGE') ? html`<form class="action" method="get" action="${href('sandbox')}"><div class="field"><label for="preview">See what an advance runs</label><input id="preview" name="preview" value="${preview ?? '1h'}"></div><button class="secondary" type="submit">Preview</button></form>
${actionForm(context.form, 'advance-clock', 'Advance the clock', [{ name: 'by', label: 'By (30s, 6m, 2h, 1d, or milliseconds)', value: preview ?? '1h', required: true }])}` : html`<p class="muted">Advancing the clock needs MANAGE.</p>`;
  const manage = context.can('MANAGE');
  const transact = context.can('TRANSACT');
  const body = html`<h1>Sandbox</h1>
${preview !== undefined && within === undefined ? html`<p class="flash problem">${preview} is not a duration: write 30s, 6m, 2h, 1d or a number of milliseconds.</p>` : ''}
${await clockSection(context, within)}
${section('Move time', advance, 'advance')}
${section('Snapshot and restore', html`${context.can('VIEW') && manage ? html`<p><a href="${href('snapshot')}" download>Download a snapshot</a> of the platform's whole state (JSON).</p>` : html`<p class="muted">A snapshot needs VIEW and MANAGE.</p>`}
${manage && transact ? actionForm(context.form, 'restore', 'Restore', [{ name: 'snapshot', label: 'Snapshot file', kind: 'file', accept: 'application/json,.json' }], { multipart: true, confirm: "Replace the platform's whole state with this snapshot?" }) : html`<p class="muted">A restore needs MANAGE and TRANSACT.</p>`}`, 'snapshot')}
${section('Reset', manage && transact ? actionForm(context.form, 'reset', 'Reset the platform', [], { confirm: "Erase the platform's data, tokens and agents? Its credentials and options stay." }) : html`<p class="muted">A reset needs MANAGE and TRANSACT.</p>`, 'reset')}`;
  return { title: 'Sandbox', section: 'sandbox', body };
};

const feed: Page = async () => ({
  title: 'Live feed',
  section: 'feed',
  body: html`<h1>Live feed</h1>
<p id="feed-state" class="muted">Connecting… (the feed needs JavaScript)</p>
${section('Events as they are emitted', html`<ul id="feed" data-stream="${href('feed', 'stream')}" data-event-page="${href('events')}"></ul>`)}`,
});

export const overviewPage: Page = sectionPages(overview);
export const sandboxPage: Page = sectionPages(sandbox);
export const feedPage: Page = sectionPages(feed);
