import { base64UrlEncode, KYC_LINK_TTL_MS, Timestamp, hostedKycPath, type KycLink } from '@railyard/contract';
import { z } from 'zod';
import { unverifiedChannels } from '../contact/contact-verification.js';
import type { TenantContext } from '../core/context.js';
import { ApiError, conflict } from '../core/errors.js';
import { hashLegacyToken, tokenHash } from '../core/secrets.js';
import { type CustomerRecord, customerView, findCustomer, findCustomersByPlatformCustomerId } from '../customers/customers.js';

// Hosted verification links (SPEC §3.4, §4.3; REFERENCE §2.1): single use, 30 minutes of engine time, refused while a
// contact channel still needs verifying. The page behind a link is in pages.ts.

/** How a finished flow ended (kept on the used link; the redirect says only `completed`). */
export const LinkOutcome = z.enum(['COMPLETED', 'APPROVED', 'REJECTED']);
export type LinkOutcome = z.infer<typeof LinkOutcome>;

/**
 * A stored link; its id is the SHA-256 (hex) of the URL's token. Neither the token nor the URL, which carries it, is
 * kept: they are in the answer only. A record of an older snapshot (its id the token, with its `kycUrl`) is restored
 * under the token's hash, without the URL, so its link still opens.
 */
export const KycLinkRecord = z.preprocess((input) => withoutUrl(hashLegacyToken(input)), z.object({
  /** The hash of the token: unguessable, the token alone authorizes the public page. */
  id: z.string().min(16),
  customerId: z.string(),
  /** Where the browser goes when the flow finishes; none: the flow ends on a page of its own. */
  redirectUri: z.string().optional(),
  createdAt: Timestamp,
  expiresAt: Timestamp,
  /** Set when the flow finished: the link is used up. */
  usedAt: Timestamp.optional(),
  outcome: LinkOutcome.optional(),
}));
export type KycLinkRecord = z.infer<typeof KycLinkRecord>;

/** An older snapshot's link record without its `kycUrl` (it carries the token). */
function withoutUrl(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || !('kycUrl' in input)) return input;
  const { kycUrl: _url, ...rest } = input as Record<string, unknown>;
  return rest;
}

/** The store collection of links (listed in the snapshot collections). */
export const KYC_LINKS = 'kycLinks';

const links = (tenant: TenantContext) => tenant.store.collection<KycLinkRecord>(KYC_LINKS);

/** 24 random bytes, base64url: the link token. */
function newToken(): string {
  return base64UrlEncode(crypto.getRandomValues(new Uint8Array(24)));
}

/**
 * `POST /customers/{id}/kyc-link`: a fresh single-use link to the hosted page, served at `origin` (the origin the
 * request came to, so the link opens on the same server). Earlier links stay valid until used or expired. 409 while
 * any channel of `contactVerification` is not VERIFIED.
 */
export function createKycLink(tenant: TenantContext, customerId: string, redirectUri: string | undefined, origin: string): KycLink {
  const customer = usableCustomer(tenant, customerId);
  const pending = unverifiedChannels(customerView(customer));
  if (pending.length > 0) {
    const paths = pending.map((channel) => `POST /customers/${customerId}/verify-${channel}`).join(' and ');
    throw conflict(
      `Customer ${customerId} must verify ${pending.join(' and ')} before a verification link can be created (${paths}, then confirm)`,
      'CONFLICT',
      { unverifiedChannels: pending },
    );
  }
  const token = newToken();
  const now = tenant.clock.now();
  const record: KycLinkRecord = {
    id: tokenHash(token),
    customerId,
    ...(redirectUri === undefined ? {} : { redirectUri }),
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + KYC_LINK_TTL_MS).toISOString(),
  };
  links(tenant).insert(record);
  return { kycUrl: `${origin}${hostedKycPath(tenant.platform.id, token)}`, expiresAt: record.expiresAt, provider: 'SUMSUB', token };
}

/**
 * The deprecated `GET /customers/kyc-link?platformCustomerId=` (an alias the latest published reference SDK still
 * calls): {@link createKycLink} for the active customer with that platformCustomerId. None: 404 USER_NOT_FOUND, or 410
 * CUSTOMER_DELETED when only deleted customers had it (what the modern path answers for such a customer's id).
 */
export function createKycLinkByPlatformCustomerId(tenant: TenantContext, platformCustomerId: string, redirectUri: string | undefined, origin: string): KycLink {
  const holders = findCustomersByPlatformCustomerId(tenant, platformCustomerId);
  const active = holders.find((customer) => !customer.isDeleted);
  if (active) return createKycLink(tenant, active.id, redirectUri, origin);
  if (holders.length > 0) throw new ApiError(410, 'CUSTOMER_DELETED', `The customer with platformCustomerId ${platformCustomerId} was deleted`);
  throw new ApiError(404, 'USER_NOT_FOUND', `No customer has platformCustomerId ${platformCustomerId}`);
}

/** 404 USER_NOT_FOUND or 410 CUSTOMER_DELETED, else the customer. */
function usableCustomer(tenant: TenantContext, customerId: string): CustomerRecord {
  const customer = findCustomer(tenant, customerId);
  if (customer.isDeleted) throw new ApiError(410, 'CUSTOMER_DELETED', `Customer ${customerId} was deleted`);
  return customer;
}

/** What a token opens: a usable link, or why not. */
export type LinkState =
  | { readonly state: 'open'; readonly link: KycLinkRecord; readonly customer: CustomerRecord }
  | { readonly state: 'unknown' }
  | { readonly state: 'used'; readonly link: KycLinkRecord }
  | { readonly state: 'expired'; readonly link: KycLinkRecord }
  | { readonly state: 'customer-gone'; readonly link: KycLinkRecord };

/** The state of the link behind `token` now. */
export function openLink(tenant: TenantContext, token: string): LinkState {
  const link = links(tenant).get(tokenHash(token));
  if (!link) return { state: 'unknown' };
  if (link.usedAt !== undefined) return { state: 'used', link };
  if (tenant.clock.now() >= Date.parse(link.expiresAt)) return { state: 'expired', link };
  const customer = findCustomerOrUndefined(tenant, link.customerId);
  if (!customer || customer.isDeleted) return { state: 'customer-gone', link };
  return { state: 'open', link, customer };
}

function findCustomerOrUndefined(tenant: TenantContext, customerId: string): CustomerRecord | undefined {
  try {
    return findCustomer(tenant, customerId);
  } catch {
    return undefined;
  }
}

/**
 * Uses the link up: the flow finished. Returns where to send the browser: `redirectUri` with `status=completed`, or
 * undefined for a link made without one (the page then says the flow is done).
 */
export function finishLink(tenant: TenantContext, link: KycLinkRecord, outcome: LinkOutcome): string | undefined {
  links(tenant).replace({ ...link, usedAt: tenant.nowIso(), outcome });
  if (link.redirectUri === undefined) return undefined;
  const target = new URL(link.redirectUri);
  target.searchParams.set('status', 'completed');
  return target.toString();
}
