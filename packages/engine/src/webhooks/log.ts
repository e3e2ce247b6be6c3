/**
 * The webhook half of a server's log (`railyard serve --log`): one entry per delivery attempt, a test send's included,
 * with nothing a log must not keep (no body, no signature, no query string or user info of the endpoint).
 */
import type { OutboxEvent, TenantContext } from '../core/context.js';
import type { AttemptResult } from './delivery.js';

/** One delivery attempt, for a log. */
export interface WebhookLogEntry {
  readonly platformId: string;
  readonly eventId: string;
  readonly eventType: string;
  /** The endpoint, scheme, host and path only: a query or user info may hold a receiver's secret. */
  readonly url: string;
  /** 1 for the first attempt at the event, 2 for its first retry, and so on. */
  readonly attempt: number;
  /** What the receiver answered; absent when it could not be reached (then `error` says why). */
  readonly status?: number;
  readonly error?: string;
  readonly durationMs: number;
}

/** The endpoint as a log shows it. */
function loggedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/** The dispatcher's attempt hook that hands each attempt to `onDelivery` as a {@link WebhookLogEntry}. */
export const webhookLogger = (onDelivery: (entry: WebhookLogEntry) => void) => (tenant: TenantContext, event: OutboxEvent, result: AttemptResult): void => {
  const { attempt } = result;
  onDelivery({
    platformId: tenant.platform.id, eventId: event.id, eventType: event.type, url: loggedUrl(attempt.url), attempt: attempt.attempt,
    ...(attempt.status === undefined ? {} : { status: attempt.status }), ...(attempt.error === undefined ? {} : { error: attempt.error }),
    durationMs: attempt.durationMs ?? 0,
  });
};

/** A webhook log line: `webhook CUSTOMER.KYC_APPROVED -> https://example.com/hooks 200 12.3ms Webhook:… attempt 1`. */
export const formatWebhookLogLine = (entry: WebhookLogEntry): string =>
  `webhook ${entry.eventType} -> ${entry.url} ${entry.status ?? `unreachable (${entry.error ?? 'no answer'})`} ${entry.durationMs.toFixed(1)}ms ${entry.eventId} attempt ${entry.attempt}`;
