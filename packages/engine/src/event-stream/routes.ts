import { EVENT_STREAM_CONTENT_TYPE, eventStreamEndpoints, LAST_EVENT_ID_HEADER, WEBHOOK_EVENT_TYPES } from '@railyard/contract';
import { invalidField } from '../core/errors.js';
import { bind, HttpResult } from '../http/app.js';
import type { TenantContext } from '../core/context.js';
import { tokenExists } from '../tokens/tokens.js';
import type { ActivityLog } from './activity.js';
import type { EventFeed } from './feed.js';

const KNOWN_TYPES = new Set<string>(WEBHOOK_EVENT_TYPES);

/** The event types of a `type` query (`A,B`): undefined for none, which streams every type. */
export function eventTypesOf(query: string | undefined): string[] | undefined {
  const types = (query ?? '').split(',').map((type) => type.trim()).filter((type) => type !== '');
  return types.length === 0 ? undefined : types;
}

/** The stream's headers: never cached, never buffered by a proxy (nginx reads `X-Accel-Buffering`). */
const STREAM_HEADERS = { 'content-type': `${EVENT_STREAM_CONTENT_TYPE}; charset=utf-8`, 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' };

/** A stream opened with an API token lasts as long as the token: once deleted, the stream ends with the next message or keep-alive. */
const allowedFor = (tenant: TenantContext, tokenId: string | undefined): { allowed?: () => boolean } =>
  tokenId === undefined ? {} : { allowed: () => tokenExists(tenant, tokenId) };

/** HTTP bindings of the event stream and the log stream. */
export const eventStreamRoutes = (feed: EventFeed, activity: ActivityLog) => [
  bind(eventStreamEndpoints.streamSandboxEvents, ({ tenant, query, request, tokenId }) => {
    const types = eventTypesOf(query.type);
    const unknown = types?.filter((type) => !KNOWN_TYPES.has(type)) ?? [];
    // A typo would stream nothing, silently: every type named must be one the sandbox emits.
    if (unknown.length > 0) throw invalidField('type', `names ${unknown.join(', ')}, which ${unknown.length === 1 ? 'is not an event type' : 'are not event types'} of this sandbox (\`railyard trigger --list\` lists them)`);
    const after = request.header(LAST_EVENT_ID_HEADER) ?? query.lastEventId;
    return new HttpResult(200, feed.stream(tenant, {
      ...(types ? { types: new Set(types) } : {}), ...(after === undefined || after === '' ? {} : { after }), ...allowedFor(tenant, tokenId),
    }), STREAM_HEADERS);
  }),
  bind(eventStreamEndpoints.streamSandboxLogs, ({ tenant, tokenId }) => new HttpResult(200, activity.stream(tenant, allowedFor(tenant, tokenId).allowed), STREAM_HEADERS)),
];
