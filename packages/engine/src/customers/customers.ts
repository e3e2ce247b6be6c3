import type {
  Customer, CustomerCreateRequest, InternalAccount, CustomerListQuery, CustomerUpdateRequest, EndUserTerms, FieldError, Page, VerificationState,
} from '@railyard/contract';
import {
  CUSTOMER_RULES, CustomerCreateRequest as CreateSchema, type CustomerImportRequest, CustomerListQuery as ListSchema, CustomerUpdateRequest as UpdateSchema,
} from '@railyard/contract';
import type { z } from 'zod';
import { openInternalAccounts } from '../accounts/internal-accounts.js';
import { CURRENCIES, DEFAULT_CUSTOMER_CURRENCIES, END_USER_TERMS } from '../config/currencies.js';
import type { TenantContext } from '../core/context.js';
import { ApiError, conflict, invalidInput, notFound } from '../core/errors.js';
import { dedupeFieldErrors, toFieldErrors } from '../core/field-errors.js';
import { definedOnly, listPage, timeRanges } from '../core/pagination.js';
import { onField, type CollectionOptions } from '../core/store.js';
import { ownersOf } from '../beneficial-owners/owners.js';
import { INDIVIDUAL_KYC, lookupSuffix } from '../sandbox/magic-values.js';
import { CUSTOMER_FIELD_PATHS, valueAt } from './required-fields.js';
import { initialContactVerification, withContactVerification } from '../contact/contact-verification.js';
import { umaDomainOf } from '../platforms/config.js';
import { localCurrencyOf } from '../config/regions.js';
import { provisionWalletCredential } from '../auth/records.js';

// Customers (SPEC §2.6, §3.2, §4.3; REFERENCE §2.1).

type CreateInput = z.output<typeof CreateSchema>;
type UpdateInput = z.output<typeof UpdateSchema>;
type ListInput = z.output<typeof ListSchema>;

/** A stored customer: the API resource plus the write-only `identifier`. */
export type CustomerRecord = Customer & { identifier?: string };

/** The customer filters of `GET /customers` an index serves (REFERENCE §1), and lookups by unique field. */
const CUSTOMER_COLLECTION: CollectionOptions<CustomerRecord> = {
  indexes: {
    isDeleted: { keys: (c) => c.isDeleted === true, reads: ['isDeleted'] },
    platformCustomerId: onField('platformCustomerId'),
    umaAddress: onField('umaAddress'),
    customerType: onField('customerType'),
    region: onField('region'),
    currency: { keys: (c) => c.currencies, reads: ['currencies'] },
  },
  createdAt: (c) => Date.parse(c.createdAt),
};
const customers = (tenant: TenantContext) => tenant.store.collection<CustomerRecord>('customers', CUSTOMER_COLLECTION);

/**
 * The customer as the API returns it (REFERENCE §2.1): `identifier` is write-only, and with the platform's context a
 * business embeds its beneficial owners.
 */
export function customerView(record: CustomerRecord, tenant?: TenantContext): Customer {
  // Records are never changed in place, so one without an identifier is its own view (no copy on every read).
  const view: Customer = record.identifier === undefined ? record : withoutIdentifier(record);
  if (tenant === undefined || view.customerType !== 'BUSINESS') return view;
  return { ...view, beneficialOwners: ownersOf(tenant, view.id) };
}

function withoutIdentifier(record: CustomerRecord): Customer {
  const { identifier: _writeOnly, ...view } = record;
  return view;
}

/** A customer by id, or 404 USER_NOT_FOUND. Deleted customers are still found (with `isDeleted`). */
export function findCustomer(tenant: TenantContext, customerId: string): CustomerRecord {
  const record = customers(tenant).get(customerId);
  if (!record) throw notFound('Customer', customerId, 'USER_NOT_FOUND');
  return record;
}

/** The active (not deleted) customer at a canonical UMA address, if any. */
export const findCustomerByUmaAddress = (tenant: TenantContext, umaAddress: string): CustomerRecord | undefined =>
  customers(tenant).findBy('umaAddress', umaAddress).find((c) => !c.isDeleted);

/** The customers with a platformCustomerId, oldest first: at most one of them active, any others deleted. */
export const findCustomersByPlatformCustomerId = (tenant: TenantContext, platformCustomerId: string): readonly CustomerRecord[] =>
  customers(tenant).findBy('platformCustomerId', platformCustomerId);

/** `POST /customers`. */
export function createCustomer(tenant: TenantContext, request: CreateInput): Customer {
  const input = normalizeUmaAddress(request);
  const currencies = input.currencies ?? defaultCurrencies(tenant, input.region);
  throwIfAny(createChecks(tenant, input));
  checkTermsVersion(input.endUserTermsConsent?.termsVersion);
  checkUniqueness(tenant, input.platformCustomerId, input.umaAddress);

  const id = tenant.ids('Customer');
  const now = tenant.nowIso();
  const handle = id.slice(-12);
  // Built field by field, in the order the API shows them (the platform's fields in the order they came), with no
  // spread or rest copy: those cost microseconds on the busiest write (docs/benchmarks.md). Undefined fields are left out.
  const record: Record<string, unknown> = { customerType: input.customerType, id };
  record.platformCustomerId = input.platformCustomerId ?? ['pcid', handle].join('_');
  const region = input.region ?? CURRENCIES[currencies[0]!]?.region;
  if (region !== undefined) record.region = region;
  record.currencies = currencies;
  record.umaAddress = input.umaAddress ?? ['$user', handle, '@', umaDomainOf(tenant)].join('');
  record.createdAt = now;
  record.updatedAt = now;
  record.isDeleted = false;
  for (const name in input) {
    const value = (input as Record<string, unknown>)[name];
    if (value !== undefined && !SET_AT_CREATION.has(name)) record[name] = value;
  }
  if (input.customerType === 'INDIVIDUAL') {
    record.kycStatus = initialStatus(tenant, input);
    const countryOfIssuance = input.idType ? (input.countryOfIssuance ?? 'US') : input.countryOfIssuance;
    if (countryOfIssuance !== undefined) record.countryOfIssuance = countryOfIssuance;
  } else {
    record.kybStatus = 'UNVERIFIED';
  }
  const contactVerification = initialContactVerification(record);
  if (contactVerification) record.contactVerification = contactVerification;

  const customer = customers(tenant).insert(record as CustomerRecord);
  provisionWallets(tenant, customer, openInternalAccounts(tenant, id, currencies));
  announceStatus(tenant, customer);
  return customerView(customer, tenant);
}

/** The fields of a create request that {@link createCustomer} sets itself (from the request or by default). */
const SET_AT_CREATION = new Set(['customerType', 'platformCustomerId', 'region', 'currencies', 'umaAddress']);

/** Each new embedded wallet gets its first credential: an email code to the customer's email (REFERENCE §6, §13). */
function provisionWallets(tenant: TenantContext, customer: CustomerRecord, opened: InternalAccount[]): void {
  for (const account of opened) {
    if (account.type === 'EMBEDDED_WALLET' && customer.email !== undefined) provisionWalletCredential(tenant, account.id, customer.email);
  }
}

/**
 * Status at creation (SPEC §3.2, §4.6): unregulated platforms start every customer UNVERIFIED and resolve from a
 * submitted packet; regulated platforms, and platforms skipping paperwork, resolve an individual's suffix at once.
 * Businesses always start UNVERIFIED.
 */
function initialStatus(tenant: TenantContext, input: CreateInput & { customerType: 'INDIVIDUAL' }) {
  const resolvesAtCreation = tenant.platform.regulated || tenant.platform.skipPaperwork;
  return resolvesAtCreation ? lookupSuffix(INDIVIDUAL_KYC, input.fullName).resolvesTo : 'UNVERIFIED';
}

/**
 * Moves a customer's kycStatus / kybStatus (SPEC §3.2) and emits the matching CUSTOMER.KYC_* / KYB_* event.
 * APPROVED and REJECTED are final: once there, the status never moves again.
 */
export function setCustomerStatus(tenant: TenantContext, customerId: string, status: VerificationState): Customer {
  const record = findCustomer(tenant, customerId);
  const current = statusOf(record);
  if (current === status || current === 'APPROVED' || current === 'REJECTED') return customerView(record, tenant);
  const updated = (record.customerType === 'INDIVIDUAL'
    ? { ...record, kycStatus: status, updatedAt: tenant.nowIso() }
    : { ...record, kybStatus: status, updatedAt: tenant.nowIso() }) as CustomerRecord;
  customers(tenant).replace(updated);
  announceStatus(tenant, updated);
  return customerView(updated, tenant);
}

/** A customer's verification status, whichever type it is. */
export const statusOf = (customer: Customer): VerificationState =>
  customer.customerType === 'INDIVIDUAL' ? customer.kycStatus : customer.kybStatus;

/** Emits the CUSTOMER.KYC_* / KYB_* event for a status other than UNVERIFIED. */
function announceStatus(tenant: TenantContext, record: CustomerRecord) {
  const status = statusOf(record);
  if (status !== 'PENDING' && status !== 'APPROVED' && status !== 'REJECTED') return;
  const prefix = record.customerType === 'INDIVIDUAL' ? 'KYC' : 'KYB';
  tenant.emit(`CUSTOMER.${prefix}_${status}`, customerView(record, tenant));
}

/** `GET /customers/{id}`. */
export function retrieveCustomer(tenant: TenantContext, customerId: string): Customer {
  return customerView(findCustomer(tenant, customerId), tenant);
}

/** `PATCH /customers/{id}`: partial update; `currencies` and `address` are replaced, `businessInfo` merged. */
export function updateCustomer(tenant: TenantContext, customerId: string, request: UpdateInput): Customer {
  const merged = prepareCustomerUpdate(tenant, customerId, request);
  customers(tenant).replace(merged);
  provisionWallets(tenant, merged, openInternalAccounts(tenant, customerId, merged.currencies));
  return customerView(merged, tenant);
}

/** The customer a PATCH would produce, after every check; nothing is stored (a signed update checks before it asks). */
export function prepareCustomerUpdate(tenant: TenantContext, customerId: string, request: UpdateInput): CustomerRecord {
  const input = normalizeUmaAddress(request);
  const existing = findCustomer(tenant, customerId);
  if (existing.isDeleted) throw new ApiError(410, 'CUSTOMER_DELETED', `Customer ${customerId} was deleted`);
  if (input.customerType !== existing.customerType) {
    throw invalidInput([{ field: 'customerType', message: `must be ${existing.customerType}, the type of this customer`, constraint: { enum: [existing.customerType] } }]);
  }
  throwIfAny(updateChecks(tenant, customerId, input));
  checkTermsVersion(input.endUserTermsConsent?.termsVersion);
  const merged = withContactVerification(existing, mergeCustomer(existing, input, tenant.nowIso()));
  checkUniqueness(
    tenant,
    merged.platformCustomerId !== existing.platformCustomerId ? merged.platformCustomerId : undefined,
    merged.umaAddress !== existing.umaAddress ? merged.umaAddress : undefined,
  );
  return merged;
}

/** `DELETE /customers/{id}`: marks the customer deleted; a second delete is 410 (REFERENCE §2.1). */
export function deleteCustomer(tenant: TenantContext, customerId: string): Customer {
  const existing = findCustomer(tenant, customerId);
  if (existing.isDeleted) throw new ApiError(410, 'CUSTOMER_DELETED', `Customer ${customerId} was already deleted`);
  const deleted = { ...existing, isDeleted: true, updatedAt: tenant.nowIso() } as CustomerRecord;
  customers(tenant).replace(deleted);
  return customerView(deleted, tenant);
}

/** `GET /customers` with the filters of REFERENCE §1, newest first. */
export function listCustomers(tenant: TenantContext, query: ListInput): Page<Customer> {
  return listPage(customers(tenant), query, {
    where: definedOnly({
      isDeleted: query.isIncludingDeleted === true ? undefined : false,
      platformCustomerId: query.platformCustomerId,
      customerType: query.customerType,
      region: query.region,
      currency: query.currency,
      umaAddress: query.umaAddress?.toLowerCase(),
    }),
    ...timeRanges<CustomerRecord>(query),
  }, (record) => customerView(record, tenant));
}

/**
 * The currencies of a customer created without `currencies`: its region's local currency when the platform offers it
 * (REFERENCE: inferred from the region), else {@link DEFAULT_CUSTOMER_CURRENCIES}.
 */
function defaultCurrencies(tenant: TenantContext, region: string | undefined): string[] {
  const local = region === undefined ? undefined : localCurrencyOf(region);
  return local !== undefined && tenant.platform.supportedCurrencies.includes(local) ? [local] : [...DEFAULT_CUSTOMER_CURRENCIES];
}

/** `GET /customers/end-user-terms`. */
export const currentEndUserTerms = (): EndUserTerms => ({ ...END_USER_TERMS[0] });

/**
 * Every problem of a customer create request, as one 400 of `POST /customers` lists them: the schema's (`schema`, the
 * create request's by default), then the platform's ({@link createChecks}) on fields the schema did not already refuse.
 * Gives the parsed request when there is none. The bulk import checks each of its rows with it.
 */
export function checkCustomerCreate(
  tenant: TenantContext, body: unknown, schema: z.ZodType<CreateInput | z.output<typeof CustomerImportRequest>> = CreateSchema,
): { request?: CreateInput; errors: FieldError[] } {
  const parsed = schema.safeParse(body, { reportInput: true });
  const errors = parsed.success ? [] : toFieldErrors(parsed.error.issues);
  const refused = new Set(errors.map((e) => e.field));
  errors.push(...createChecks(tenant, body).filter((e) => !refused.has(e.field)));
  if (errors.length > 0 || !parsed.success) return { errors: dedupeFieldErrors(errors) };
  // An imported business may lack businessInfo fields the file has no column for; creation never reads them.
  return { request: parsed.data as CreateInput, errors };
}

/**
 * Checks of `POST /customers` that need the platform: every currency is one it offers, and each currency's
 * provider-required fields are present. They read the raw body defensively, so they run beside the schema.
 */
export function createChecks(tenant: TenantContext, body: unknown): FieldError[] {
  const raw = asRecord(body);
  const currencies = raw.currencies === undefined ? defaultCurrencies(tenant, typeof raw.region === 'string' ? raw.region : undefined) : stringsOf(raw.currencies);
  return platformRuleErrors(tenant, raw, currencies);
}

/**
 * Checks of `PATCH /customers/{id}` on the customer as it would be after the update: the cross-field rules of the
 * contract (SSN/ITIN issued in the US, tax id for the country, OTHER descriptions) and the platform rules.
 */
export function updateChecks(tenant: TenantContext, customerId: string, body: unknown): FieldError[] {
  const existing = customers(tenant).get(customerId);
  const patch = asRecord(body);
  if (!existing || existing.isDeleted || patch.customerType !== existing.customerType) return [];
  const merged = mergeCustomer(existing, patch, existing.updatedAt);
  const rules = CUSTOMER_RULES[existing.customerType].safeParse(merged, { reportInput: true });
  return [...(rules.success ? [] : toFieldErrors(rules.error.issues)), ...platformRuleErrors(tenant, merged, stringsOf(merged.currencies))];
}

/** The customer after a PATCH: top-level fields replaced (`currencies`, `address` wholesale), `businessInfo` merged. */
function mergeCustomer(existing: CustomerRecord, patch: Record<string, unknown>, updatedAt: string): CustomerRecord {
  const { customerType: _type, ...changes } = patch;
  let merged = { ...existing, ...changes, updatedAt } as Record<string, unknown>;
  if (existing.customerType === 'BUSINESS' && changes.businessInfo !== undefined) {
    merged.businessInfo = { ...existing.businessInfo, ...asRecord(changes.businessInfo) };
  }
  if (existing.customerType === 'INDIVIDUAL' && merged.idType !== undefined && merged.countryOfIssuance === undefined) merged.countryOfIssuance = 'US';
  merged = definedOnly(merged);
  return merged as CustomerRecord;
}

function platformRuleErrors(tenant: TenantContext, customer: Record<string, unknown>, currencies: readonly string[]): FieldError[] {
  const errors: FieldError[] = [];
  const supported = tenant.platform.supportedCurrencies;
  currencies.forEach((code, index) => {
    if (!supported.includes(code)) {
      errors.push({ field: `currencies.${index}`, message: `${code} is not a currency this platform supports`, constraint: { enum: [...supported] } });
    }
  });
  const type = customer.customerType;
  if (type !== 'INDIVIDUAL' && type !== 'BUSINESS') return errors;
  // Made only when a field is missing: every customer create and update comes through here.
  let missing: Map<string, string[]> | undefined;
  for (const code of currencies) {
    for (const name of CURRENCIES[code]?.providerRequiredCustomerFields ?? []) {
      const path = CUSTOMER_FIELD_PATHS[name]?.[type];
      if (path === undefined || valueAt(customer, path) !== undefined) continue;
      missing ??= new Map();
      missing.set(path, [...(missing.get(path) ?? []), code]);
    }
  }
  for (const [path, codes] of missing ?? []) {
    errors.push({ field: path, message: `is required for customers holding ${codes.join(', ')}`, constraint: { required: true } });
  }
  return errors;
}

function checkTermsVersion(version: string | undefined) {
  if (version !== undefined && !END_USER_TERMS.some((t) => t.version === version)) {
    throw new ApiError(400, 'END_USER_TERMS_VERSION_NOT_FOUND', `End-user terms version ${version} does not exist; the current version is ${END_USER_TERMS[0].version}`);
  }
}

function throwIfAny(errors: FieldError[]) {
  if (errors.length > 0) throw invalidInput(errors);
}

const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const stringsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** platformCustomerId is unique among active customers (409 CONFLICT); an UMA address is unique (409 UMA_ADDRESS_EXISTS). */
function checkUniqueness(tenant: TenantContext, platformCustomerId: string | undefined, umaAddress: string | undefined) {
  if (platformCustomerId !== undefined) {
    const active = customers(tenant).findBy('platformCustomerId', platformCustomerId).find((c) => !c.isDeleted);
    if (active) throw conflict(`platformCustomerId ${platformCustomerId} is already used by customer ${active.id}`, 'CONFLICT', { customerId: active.id });
  }
  if (umaAddress !== undefined && customers(tenant).findBy('umaAddress', umaAddress).length > 0) {
    throw conflict(`UMA address ${umaAddress} is already taken`, 'UMA_ADDRESS_EXISTS');
  }
}

/** UMA addresses are case-insensitive and lower case by convention (REFERENCE §14): store them lower-cased. */
function normalizeUmaAddress<T extends { umaAddress?: string | undefined }>(input: T): T {
  return input.umaAddress === undefined ? input : { ...input, umaAddress: input.umaAddress.toLowerCase() };
}

export type { CustomerCreateRequest, CustomerUpdateRequest, CustomerListQuery };
