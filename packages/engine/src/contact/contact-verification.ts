import { CONTACT_CODE_TTL_MS, ContactChannel, Timestamp, type Customer } from '@railyard/contract';
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { ApiError, conflict, invalidField } from '../core/errors.js';
import { type CustomerRecord, customerView, findCustomer } from '../customers/customers.js';
import { CONTACT_VERIFICATION_CODE } from '../sandbox/magic-values.js';
import { type ChannelRule, regionPolicyOf } from '../config/regions.js';

// Contact verification (SPEC §2.6, §3.4, §4.3; REFERENCE §2.1, §13): which channels a region requires, one-time codes,
// and the PENDING → VERIFIED move of each channel.

/** The contact channels a customer's region verifies (the region policies of config/regions.ts). */
export const contactRulesOf = (region: string | undefined): Readonly<Partial<Record<ContactChannel, ChannelRule>>> =>
  regionPolicyOf(region).contactVerification;

/** The customer field each channel verifies. */
export const CHANNEL_FIELD = { email: 'email', phone: 'phoneNumber' } as const satisfies Record<ContactChannel, keyof CustomerRecord>;

/** The API path segment of each channel (`/verify-email`, `/verify-phone`). */
const CHANNEL_PATH = { email: 'verify-email', phone: 'verify-phone' } as const satisfies Record<ContactChannel, string>;
const CHANNEL_NAME = { email: 'email', phone: 'phone number' } as const satisfies Record<ContactChannel, string>;

type ContactStatuses = NonNullable<Customer['contactVerification']>;
/** What the rules read of a customer. */
type ContactFields = { region?: string | undefined; email?: string | undefined; phoneNumber?: string | undefined };

/** The channels a customer's region verifies that the customer has a contact for: the ones listed and checked. */
export function verifiedChannels(customer: ContactFields): ContactChannel[] {
  const rules = contactRulesOf(customer.region);
  return ContactChannel.options.filter((channel) => rules[channel] !== undefined && customer[CHANNEL_FIELD[channel]] !== undefined);
}

/** The contact fields a customer's region requires that the customer does not have yet (verification asks for them). */
export function missingContactFields(customer: ContactFields): (typeof CHANNEL_FIELD)[ContactChannel][] {
  const rules = contactRulesOf(customer.region);
  return ContactChannel.options.filter((channel) => rules[channel] === 'required' && customer[CHANNEL_FIELD[channel]] === undefined).map((channel) => CHANNEL_FIELD[channel]);
}

/** `contactVerification` of a new customer: every required channel PENDING, or undefined when none is required. */
export function initialContactVerification(customer: ContactFields): ContactStatuses | undefined {
  const channels = verifiedChannels(customer);
  if (channels.length === 0) return undefined;
  return Object.fromEntries(channels.map((channel) => [channel, 'PENDING'])) as ContactStatuses;
}

/**
 * `contactVerification` after a PATCH: a channel stays VERIFIED only while its contact is unchanged; a changed contact,
 * or a channel newly required (a phone number added, a new region), is PENDING. Undefined when none is required.
 */
export function contactVerificationAfterUpdate(before: CustomerRecord, after: ContactFields): ContactStatuses | undefined {
  const channels = verifiedChannels(after);
  if (channels.length === 0) return undefined;
  const previous = before.contactVerification ?? {};
  return Object.fromEntries(
    channels.map((channel) => {
      const field = CHANNEL_FIELD[channel];
      const unchanged = before[field] === after[field];
      return [channel, unchanged && previous[channel] === 'VERIFIED' ? 'VERIFIED' : 'PENDING'];
    }),
  ) as ContactStatuses;
}

/** Channels present in `contactVerification` that are not VERIFIED yet. */
export const unverifiedChannels = (customer: Customer): ContactChannel[] =>
  ContactChannel.options.filter((channel) => {
    const status = customer.contactVerification?.[channel];
    return status !== undefined && status !== 'VERIFIED';
  });

// ---------------------------------------------------------------------------------------------------------------------
// One-time codes

/** A pending code: one per customer and channel; a new send replaces it, a successful confirm removes it. */
export const ContactCodeRecord = z.object({
  /** `<customerId>/<channel>`. */
  id: z.string(),
  customerId: z.string(),
  channel: ContactChannel,
  code: z.string(),
  /** The email or phone number the code went to: a code confirms that contact only. */
  sentTo: z.string(),
  issuedAt: Timestamp,
  expiresAt: Timestamp,
});
export type ContactCodeRecord = z.infer<typeof ContactCodeRecord>;

/** The store collection of pending codes (listed in the snapshot collections). */
export const CONTACT_CODES = 'contactVerificationCodes';

const codes = (tenant: TenantContext) => tenant.store.collection<ContactCodeRecord>(CONTACT_CODES);
const customers = (tenant: TenantContext) => tenant.store.collection<CustomerRecord>('customers');
const codeId = (customerId: string, channel: ContactChannel) => `${customerId}/${channel}`;

/**
 * The customer and its contact for `channel`, after the checks both send and confirm make: 404 USER_NOT_FOUND,
 * 410 CUSTOMER_DELETED, 409 CONFLICT for a channel the region does not verify, one without a contact on file, or one
 * already VERIFIED.
 */
function channelOf(tenant: TenantContext, customerId: string, channel: ContactChannel): { customer: CustomerRecord; contact: string } {
  const customer = findCustomer(tenant, customerId);
  if (customer.isDeleted) throw new ApiError(410, 'CUSTOMER_DELETED', `Customer ${customerId} was deleted`);
  const status = customer.contactVerification?.[channel];
  const contact = customer[CHANNEL_FIELD[channel]];
  if (status === undefined || contact === undefined) {
    const verified = contactRulesOf(customer.region)[channel] !== undefined;
    throw conflict(
      verified
        ? `Customer ${customerId} has no ${CHANNEL_NAME[channel]} to verify; add ${CHANNEL_FIELD[channel]} with PATCH /customers/${customerId} first`
        : `Customer ${customerId} needs no ${CHANNEL_NAME[channel]} verification: the provider of region ${customer.region ?? '(none)'} does not require it`,
      'CONFLICT',
      { channel },
    );
  }
  if (status === 'VERIFIED') {
    throw conflict(`The ${CHANNEL_NAME[channel]} of customer ${customerId} is already VERIFIED`, 'CONFLICT', { channel });
  }
  return { customer, contact };
}

/**
 * `POST /customers/{id}/verify-email` and `/verify-phone`: issues a new code for the channel, replacing any earlier one
 * (which stops working). Codes expire after {@link CONTACT_CODE_TTL_MS} of engine time; the sandbox code is always
 * {@link CONTACT_VERIFICATION_CODE}.
 */
export function sendContactCode(tenant: TenantContext, customerId: string, channel: ContactChannel): void {
  const { contact } = channelOf(tenant, customerId, channel);
  const now = tenant.clock.now();
  const record: ContactCodeRecord = {
    id: codeId(customerId, channel),
    customerId,
    channel,
    code: CONTACT_VERIFICATION_CODE,
    sentTo: contact,
    issuedAt: new Date(now).toISOString(),
    expiresAt: new Date(now + CONTACT_CODE_TTL_MS).toISOString(),
  };
  const store = codes(tenant);
  // Delete and insert rather than replace: the new code is a new record, the old one is gone.
  store.delete(record.id);
  store.insert(record);
}

/**
 * `POST /customers/{id}/verify-email/confirm` and `/verify-phone/confirm`: with the code most recently sent to the
 * customer's current contact, before it expires, the channel becomes VERIFIED. Otherwise 400 INVALID_INPUT on `code`
 * saying whether no code was sent, it expired or it is wrong, and nothing changes.
 */
export function confirmContactCode(tenant: TenantContext, customerId: string, channel: ContactChannel, code: string): Customer {
  const { customer, contact } = channelOf(tenant, customerId, channel);
  const pending = codes(tenant).get(codeId(customerId, channel));
  const resend = `request one with POST /customers/${customerId}/${CHANNEL_PATH[channel]}`;
  if (pending === undefined || pending.sentTo !== contact) {
    const why = pending === undefined ? `no code was sent to this customer's ${CHANNEL_NAME[channel]}` : `no code was sent to the current ${CHANNEL_NAME[channel]} (it changed since)`;
    throw invalidField('code', `${why}; ${resend}`);
  }
  if (tenant.clock.now() >= Date.parse(pending.expiresAt)) {
    throw invalidField('code', `the code expired at ${pending.expiresAt} (codes are valid for ${CONTACT_CODE_TTL_MS / 60_000} minutes); ${resend}`);
  }
  if (code !== pending.code) {
    throw invalidField('code', `is wrong: it does not match the code sent to this ${CHANNEL_NAME[channel]} (in the sandbox the code is ${CONTACT_VERIFICATION_CODE})`);
  }
  const updated = {
    ...customer,
    contactVerification: { ...customer.contactVerification, [channel]: 'VERIFIED' },
    updatedAt: tenant.nowIso(),
  } as CustomerRecord;
  customers(tenant).replace(updated);
  codes(tenant).delete(pending.id);
  return customerView(updated, tenant);
}

/**
 * The customer with `contactVerification` as its region and contacts require: for a new customer (`before` undefined)
 * every required channel PENDING; after a PATCH as {@link contactVerificationAfterUpdate} says. Absent when none is required.
 */
export function withContactVerification<T extends CustomerRecord>(before: CustomerRecord | undefined, after: T): T {
  const { contactVerification: _previous, ...rest } = after;
  const next = before === undefined ? initialContactVerification(after) : contactVerificationAfterUpdate(before, after);
  return (next === undefined ? rest : { ...rest, contactVerification: next }) as T;
}
