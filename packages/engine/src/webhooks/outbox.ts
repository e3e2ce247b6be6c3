/**
 * The awaitable outbox (`engine.webhooks.next`): a test waits for an event by type instead of polling. Each call to
 * `next` for a platform and type returns the oldest event it has not returned yet, so events emitted before the call
 * (an in-process payment settles within its own request) are found too.
 */
import { eventsOf, type OutboxEvent, type TenantContext } from '../core/context.js';
import type { WebhookDispatcher } from './delivery.js';

/** Per platform and type: the ids of the events `next` returned (ids, not positions, so a reset starts afresh). */
const returned = new WeakMap<TenantContext, Map<string, Set<string>>>();

export function nextEvent(dispatcher: WebhookDispatcher, tenant: TenantContext, type: string | undefined, timeoutMs: number): Promise<OutboxEvent> {
  let byType = returned.get(tenant);
  if (!byType) returned.set(tenant, (byType = new Map()));
  const key = type ?? '*';
  let seen = byType.get(key);
  if (!seen) byType.set(key, (seen = new Set()));
  const matches = (event: OutboxEvent) => (type === undefined || event.type === type) && !seen!.has(event.id);
  const take = (event: OutboxEvent) => {
    seen!.add(event.id);
    return event;
  };
  // Oldest first: the type's index (or every event) in emission order, up to the first not returned yet.
  const events = type === undefined ? eventsOf(tenant).values() : eventsOf(tenant).findBy('type', type as OutboxEvent['type']);
  for (const event of events) if (matches(event)) return Promise.resolve(take(event));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`No ${type ?? ''} event was emitted within ${timeoutMs} ms`.replace('  ', ' ')));
    }, timeoutMs);
    const stop = dispatcher.listen((emitter, event) => {
      if (emitter !== tenant || !matches(event)) return;
      clearTimeout(timer);
      stop();
      resolve(take(event));
    });
  });
}
