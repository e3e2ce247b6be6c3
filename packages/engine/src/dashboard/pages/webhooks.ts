/** Webhooks: the endpoint, every event with its delivery attempts, an event's signed payload, redelivery and a test. */
import { WEBHOOK_EVENT_TYPES, WEBHOOK_SIGNATURE_HEADER, configEndpoints, controlPlaneEndpoints } from '@railyard/contract/routes';
import { attempt, type ResultOf } from '../api.js';
import { sectionPages, type Page } from '../context.js';
import { listTable, PAGE_SIZE } from '../lists.js';
import { actionForm, badge, facts, filters, href, html, idLink, json, refusedNote, section, table, when } from '../view.js';

type SandboxEvent = ResultOf<typeof controlPlaneEndpoints.listSandboxEvents>['data'][number];
type Attempt = SandboxEvent['deliveries'][number];

const lastAttempt = (event: SandboxEvent): Attempt | undefined => event.deliveries[event.deliveries.length - 1];

const attemptColumns = [
  { label: '#', cell: (a: Attempt) => String(a.attempt) }, { label: 'At', cell: (a: Attempt) => when(a.at) }, { label: 'URL', cell: (a: Attempt) => html`<code>${a.url}</code>` },
  { label: 'Status', cell: (a: Attempt) => a.status === undefined ? badge('ERROR') : badge(a.status >= 200 && a.status < 300 ? 'DELIVERED' : 'FAILED') },
  { label: 'Code', cell: (a: Attempt) => a.status === undefined ? a.error ?? '' : String(a.status) },
  { label: 'Took', cell: (a: Attempt) => a.durationMs === undefined ? '' : `${a.durationMs.toFixed(0)} ms` },
];

const overview: Page = async (context) => {
  const config = await attempt(context.api.call(configEndpoints.getConfig));
  const type = context.queryRecord.type;
  const events = await listTable(context, context.api.call(controlPlaneEndpoints.listSandboxEvents, { query: { limit: PAGE_SIZE, type, cursor: context.queryRecord.cursor } }), [
    { label: 'Event', cell: (e: SandboxEvent) => html`<a href="${href('events', e.id)}"><code>${e.id}</code></a>` }, { label: 'Type', cell: (e: SandboxEvent) => e.type },
    { label: 'Resource', cell: (e: SandboxEvent) => idLink(e.resource) }, { label: 'Emitted', cell: (e: SandboxEvent) => when(e.timestamp) },
    { label: 'Delivery', cell: (e: SandboxEvent) => e.delivery ? badge(e.delivery.status) : html`<span class="muted">no endpoint</span>` },
    { label: 'Attempts', cell: (e: SandboxEvent) => String(e.deliveries.length) },
    { label: 'Last answer', cell: (e: SandboxEvent) => { const last = lastAttempt(e); return last === undefined ? '' : last.status === undefined ? last.error ?? '' : `${last.status} in ${(last.durationMs ?? 0).toFixed(0)} ms`; } },
  ], { path: href('webhooks'), query: { type, cursor: context.queryRecord.cursor }, empty: 'No events emitted yet.' });
  const endpoint = config.ok ? (config.value as { webhookEndpoint?: string }).webhookEndpoint : undefined;
  const body = html`<h1>Webhooks</h1>
${section('Endpoint', config.ok ? html`${facts([['Webhook endpoint', endpoint ? html`<code>${endpoint}</code>` : html`<span class="muted">none: set one with PATCH /config</span>`], ['Signature header', html`<code>${WEBHOOK_SIGNATURE_HEADER}</code>`]])}
${context.can('MANAGE') ? actionForm(context.form, 'webhook-test', 'Send a test event') : ''}` : refusedNote(config.refused), 'endpoint')}
${section('Filter', filters(href('webhooks'), [{ name: 'type', label: 'Event type', kind: 'select', options: WEBHOOK_EVENT_TYPES, value: type ?? '', blank: 'Any' }]))}
${section('Events, newest first', events, 'events')}`;
  return { title: 'Webhooks', section: 'webhooks', body };
};

const eventPage: Page = async (context, [id]) => {
  if (id === undefined) return undefined;
  const found = await attempt(context.api.call(controlPlaneEndpoints.getSandboxEvent, { params: { eventId: id } }));
  if (!found.ok) return found.refused.status === 404 ? undefined : { title: 'Event', section: 'webhooks', body: html`<h1>Event</h1>${refusedNote(found.refused)}` };
  const event = found.value;
  const body = html`<h1>${event.type}</h1>
<p><code>${event.id}</code> ${event.delivery ? badge(event.delivery.status) : ''}</p>
<div class="grid">
${section('Event', facts([
    ['Type', event.type], ['Resource', idLink(event.resource)], ['Emitted', when(event.timestamp)], ['Order', event.order],
    ['Delivery', event.delivery ? html`${badge(event.delivery.status)} to <code>${event.delivery.url}</code>` : 'no endpoint when emitted'],
    ['Next attempt', event.delivery?.nextAttemptAt ? when(event.delivery.nextAttemptAt) : undefined],
  ]))}
${section('Redeliver', context.can('MANAGE') ? actionForm(context.form, 'redeliver', 'Send it again now', [{ name: 'eventId', label: '', kind: 'hidden', value: event.id }]) : html`<p class="muted">Needs MANAGE.</p>`)}
</div>
${section('Delivery attempts', table(attemptColumns, event.deliveries, 'Not sent yet.'), 'attempts')}
${section('Signed payload', html`<p class="muted">The body every delivery sends, byte for byte, and its <code>${WEBHOOK_SIGNATURE_HEADER}</code> header.</p>
<h3>${WEBHOOK_SIGNATURE_HEADER}</h3><pre class="json" id="signature-header">${event.signature}</pre><h3>Body</h3><pre class="json" id="payload-body">${event.payload}</pre>`, 'signed-payload')}
${section('Data', json(event.data))}`;
  return { title: event.type, section: 'webhooks', body };
};

export const webhooksPage: Page = sectionPages(overview);
export const eventsPage: Page = sectionPages(undefined, eventPage);
