import type { Page, Quote } from '@railyard/contract';
import type { TenantContext } from '../core/context.js';
import { listPage } from '../core/pagination.js';
import { QUOTES, retrieveQuote } from './quotes.js';

/**
 * The deprecated `GET /quotes`, which the latest published reference SDK still calls: every quote of the platform,
 * newest first, each as `GET /quotes/{id}` shows it (an overdue one is expired first).
 */
export function listQuotes(tenant: TenantContext, page: { limit: number; cursor?: string | undefined }): Page<Quote> {
  return listPage(tenant.store.collection<{ id: string }>(QUOTES), page, {}, (record) => retrieveQuote(tenant, record.id));
}
