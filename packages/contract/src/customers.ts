import { z } from 'zod';
import {
  Address, CountryCode, CurrencyCode, Email, IdParam, IsoDate, MAX_LENGTH, PhoneNumber, SSN_PATTERN, Timestamp, cappedString, idPattern,
  onEveryObject, resourceId,
} from './common.js';
import { defineEndpoint } from './endpoint.js';
import { signedLegs } from './signed-retry.js';
import { PageQuery, QueryBoolean, TimeRangeQuery, pageOf } from './pagination.js';
import { isValidTaxId, taxIdPatternFor, TAX_ID_FORMATS } from './tax-ids.js';

// ---------------------------------------------------------------------------------------------------------------------
// Enumerations (SPEC §2.6, REFERENCE §2.1)

export const CustomerType = z.enum(['INDIVIDUAL', 'BUSINESS']).meta({ id: 'CustomerType' });
export type CustomerType = z.infer<typeof CustomerType>;

/** kycStatus / kybStatus values. */
export const VerificationState = z.enum(['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD']).meta({ id: 'KycStatus' });
export type VerificationState = z.infer<typeof VerificationState>;

export const ContactChannelStatus = z.enum(['PENDING', 'VERIFIED']);
/** Present only when the customer's region requires contact verification; only required channels appear. */
export const ContactVerification = z
  .object({ email: ContactChannelStatus.optional(), phone: ContactChannelStatus.optional() })
  .meta({ id: 'ContactVerification' });

export const EntityType = z.enum([
  'SOLE_PROPRIETORSHIP', 'PARTNERSHIP', 'LLC', 'CORPORATION', 'S_CORPORATION', 'NON_PROFIT', 'PUBLICLY_LISTED_COMPANY', 'TRUST',
  'PRIVATE_FOUNDATION', 'CHARITY', 'OTHER',
]);
export const BusinessType = z.enum([
  'AGRICULTURE_FORESTRY_FISHING_AND_HUNTING', 'MINING_QUARRYING_AND_OIL_AND_GAS_EXTRACTION', 'UTILITIES', 'CONSTRUCTION',
  'MANUFACTURING', 'WHOLESALE_TRADE', 'RETAIL_TRADE', 'TRANSPORTATION_AND_WAREHOUSING', 'INFORMATION', 'FINANCE_AND_INSURANCE',
  'REAL_ESTATE_AND_RENTAL_AND_LEASING', 'PROFESSIONAL_SCIENTIFIC_AND_TECHNICAL_SERVICES', 'MANAGEMENT_OF_COMPANIES_AND_ENTERPRISES',
  'ADMINISTRATIVE_AND_SUPPORT_AND_WASTE_MANAGEMENT_AND_REMEDIATION_SERVICES', 'EDUCATIONAL_SERVICES',
  'HEALTH_CARE_AND_SOCIAL_ASSISTANCE', 'ARTS_ENTERTAINMENT_AND_RECREATION', 'ACCOMMODATION_AND_FOOD_SERVICES', 'OTHER_SERVICES',
  'PUBLIC_ADMINISTRATION',
]);
export const PurposeOfAccount = z.enum([
  'CONTRACTOR_PAYOUTS', 'CREATOR_PAYOUTS', 'EMPLOYEE_PAYOUTS', 'MARKETPLACE_SELLER_PAYOUTS', 'SUPPLIER_PAYMENTS', 'CROSS_BORDER_B2B',
  'AR_AUTOMATION', 'AP_AUTOMATION', 'EMBEDDED_PAYMENTS', 'PLATFORM_FEE_COLLECTION', 'P2P_TRANSFERS', 'CHARITABLE_DONATIONS', 'OTHER',
]);
export const BusinessSourceOfFunds = z.enum([
  'OPERATING_REVENUE', 'INVESTMENT_INCOME', 'LOANS', 'VENTURE_CAPITAL', 'PERSONAL_SAVINGS', 'DONATIONS', 'OTHER',
]);
export const ExpectedMonthlyTransactionCount = z.enum([
  'COUNT_UNDER_10', 'COUNT_10_TO_100', 'COUNT_100_TO_500', 'COUNT_500_TO_1000', 'COUNT_OVER_1000',
]);
export const ExpectedMonthlyTransactionVolume = z.enum([
  'VOLUME_UNDER_10K', 'VOLUME_10K_TO_100K', 'VOLUME_100K_TO_1M', 'VOLUME_1M_TO_10M', 'VOLUME_OVER_10M',
]);
export const IndividualSourceOfFunds = z.enum([
  'SALARY', 'SELF_EMPLOYMENT_INCOME', 'INVESTMENT_INCOME', 'PENSION', 'RENTAL_INCOME', 'GIFT', 'INHERITANCE', 'LOAN', 'SAVINGS',
  'SALE_OF_ASSETS', 'OTHER',
]);
export const SourceOfWealth = z.enum([
  'SALARY', 'BUSINESS_INCOME', 'INVESTMENTS', 'INHERITANCE', 'PROPERTY_SALE', 'GIFT', 'RETIREMENT', 'SAVINGS', 'OTHER',
]);
export const AnnualIncomeRange = z.enum(['UNDER_50K', 'RANGE_50K_100K', 'RANGE_100K_250K', 'RANGE_250K_1M', 'OVER_1M']);
export const NetWorthRange = z.enum(['UNDER_100K', 'RANGE_100K_500K', 'RANGE_500K_1M', 'RANGE_1M_5M', 'RANGE_5M_25M', 'OVER_25M']);
export const PepStatus = z.enum(['NONE', 'DOMESTIC', 'FOREIGN', 'HIO', 'FAMILY_OR_ASSOCIATE']);
export const AcceptanceMethod = z.enum(['CHECKBOX', 'CLICK_TO_ACCEPT']);

/** Customer fields a currency's provider may require (`CustomerInfoFieldName`). */
export const CustomerInfoFieldName = z
  .enum([
    'FULL_NAME', 'BIRTH_DATE', 'NATIONALITY', 'PHONE_NUMBER', 'EMAIL', 'POSTAL_ADDRESS', 'TAX_ID', 'REGISTRATION_NUMBER', 'USER_TYPE',
    'COUNTRY_OF_RESIDENCE', 'ACCOUNT_IDENTIFIER', 'FI_LEGAL_ENTITY_NAME', 'FI_ADDRESS', 'PURPOSE_OF_PAYMENT',
    'ULTIMATE_INSTITUTION_COUNTRY', 'IDENTIFIER', 'BUSINESS_TYPE', 'COMPANY_LEGAL_NAME', 'ID_TYPE', 'ID_NUMBER',
  ])
  .meta({ id: 'CustomerInfoFieldName' });
export type CustomerInfoFieldName = z.infer<typeof CustomerInfoFieldName>;

// ---------------------------------------------------------------------------------------------------------------------
// Building blocks

export const CustomerId = resourceId('Customer').meta({ id: 'CustomerId' });

/** Recorded end-user terms acceptance; all fields required. */
export const EndUserTermsConsent = z
  .object({
    acceptedAt: Timestamp,
    ipAddress: cappedString(MAX_LENGTH.ipAddress).min(1),
    termsVersion: cappedString(MAX_LENGTH.id).min(1),
    acceptanceMethod: AcceptanceMethod,
  })
  .meta({ id: 'EndUserTermsConsent' });
export type EndUserTermsConsent = z.infer<typeof EndUserTermsConsent>;

/** `GET /customers/end-user-terms`. */
export const EndUserTerms = z.object({ version: z.string(), url: z.url() }).meta({ id: 'EndUserTerms' });
export type EndUserTerms = z.infer<typeof EndUserTerms>;

/** A free-text explanation of an OTHER choice: 1–500 characters. */
const description = cappedString(500).min(1);
/** Free text the reference gives no limit: {@link MAX_LENGTH.description}. */
const freeText = cappedString(MAX_LENGTH.description).min(1);
const nameField = cappedString(250).min(1);
/** A name or identifier the reference gives no limit. */
const nameText = cappedString(MAX_LENGTH.name).min(1);
const idText = cappedString(MAX_LENGTH.id).min(1);
/**
 * `$<username>@<domain>`: a mandatory `$`, a username of a-z 0-9 - _ . + (case-insensitive) of at most 64
 * characters with the `$`, and the domain of the receiving service (any host: the sandbox's, a platform's, `localhost`).
 */
export const UmaAddress = cappedString(MAX_LENGTH.handle)
  .regex(/^\$[a-z0-9\-_.+]{1,63}@[^@\s$]+$/i, { message: 'must be an UMA address such as $alice@example.com: a $, a username of at most 63 characters (a-z 0-9 - _ . +), @ and a domain' })
  .meta({ id: 'UmaAddress' });
const PlatformCustomerId = idText;
/** Currencies enabled on the customer; replaced wholesale on PATCH. A currency listed twice counts once. */
const Currencies = z.array(CurrencyCode).transform((codes) => [...new Set(codes)]);
/** The region that picks between several offering the same currency: an ISO 3166-1 alpha-2 country such as DE. */
const Region = idText;

/** Individual enhanced-due-diligence fields, optional and patchable. */
const individualEdd = {
  sourceOfFundsCategories: z.array(IndividualSourceOfFunds).optional(),
  sourceOfFundsOtherDescription: description.optional(),
  sourceOfWealthCategories: z.array(SourceOfWealth).optional(),
  sourceOfWealthOtherDescription: freeText.optional(),
  purposeOfAccount: PurposeOfAccount.optional(),
  purposeOfAccountOtherDescription: description.optional(),
  expectedMonthlyTransactionCount: ExpectedMonthlyTransactionCount.optional(),
  expectedMonthlyTransactionVolume: ExpectedMonthlyTransactionVolume.optional(),
  annualIncomeRange: AnnualIncomeRange.optional(),
  netWorthRange: NetWorthRange.optional(),
  pepStatus: PepStatus.optional(),
};

const businessInfoFields = {
  legalName: nameText,
  doingBusinessAs: nameText.optional(),
  registrationNumber: idText.optional(),
  taxId: idText,
  country: CountryCode,
  incorporatedOn: IsoDate,
  entityType: EntityType.optional(),
  businessType: BusinessType.optional(),
  naicsCode: cappedString(MAX_LENGTH.id).regex(/^\d{2,6}$/).optional(),
  countriesOfOperation: z.array(CountryCode).optional(),
  expectedRecipientJurisdictions: z.array(CountryCode).optional(),
  expectedCounterpartyCountries: z.array(CountryCode).optional(),
  purposeOfAccount: PurposeOfAccount.optional(),
  purposeOfAccountOtherDescription: description.optional(),
  sourceOfFunds: freeText.optional(),
  sourceOfFundsCategories: z.array(BusinessSourceOfFunds).optional(),
  sourceOfFundsOtherDescription: description.optional(),
  expectedMonthlyTransactionCount: ExpectedMonthlyTransactionCount.optional(),
  expectedMonthlyTransactionVolume: ExpectedMonthlyTransactionVolume.optional(),
  primaryContactFirstName: nameField.optional(),
  primaryContactLastName: nameField.optional(),
};

/** businessInfo as a BUSINESS create requires it: legalName, country, taxId, incorporatedOn. */
export const BusinessInfoCreate = z.object(businessInfoFields).meta({ id: 'BusinessInfoCreate' });
/** businessInfo on PATCH: every field optional. */
export const BusinessInfoUpdate = z.object(businessInfoFields).partial().meta({ id: 'BusinessInfoUpdate' });
/** businessInfo in responses: only legalName is guaranteed. */
export const BusinessInfo = z
  .object({ ...businessInfoFields })
  .partial()
  .extend({ legalName: businessInfoFields.legalName })
  .meta({ id: 'BusinessInfo' });
export type BusinessInfo = z.infer<typeof BusinessInfo>;

const commonWritable = {
  platformCustomerId: PlatformCustomerId.optional(),
  region: Region.optional(),
  currencies: Currencies.optional(),
  email: Email.optional(),
  phoneNumber: PhoneNumber.optional(),
  umaAddress: UmaAddress.optional(),
  endUserTermsConsent: EndUserTermsConsent.optional(),
};

const individualWritable = {
  fullName: cappedString(MAX_LENGTH.name).trim().min(1).optional(),
  birthDate: IsoDate.optional(),
  nationality: CountryCode.optional(),
  address: Address.optional(),
  idType: z.enum(['SSN', 'ITIN'], { message: 'individuals accept only SSN or ITIN' }).optional(),
  identifier: idText.optional(),
  countryOfIssuance: CountryCode.optional(),
  ...individualEdd,
};

// ---------------------------------------------------------------------------------------------------------------------
// Cross-field rules. They run even when other fields already failed, so one response lists every invalid field.

type Ctx = z.core.$RefinementCtx;
const rec = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {});
const requiredIssue = (ctx: Ctx, path: (string | number)[], message: string) =>
  ctx.addIssue({ code: 'custom', path, message, params: { constraint: { required: true } } });

/** A `*Categories` array that contains OTHER requires its `*OtherDescription`. */
function checkOtherDescriptions(value: Record<string, unknown>, ctx: Ctx, pairs: [string, string][], prefix: string[] = []) {
  for (const [field, describedBy] of pairs) {
    const chosen = value[field];
    const hasOther = Array.isArray(chosen) ? chosen.includes('OTHER') : chosen === 'OTHER';
    if (hasOther && (typeof value[describedBy] !== 'string' || value[describedBy] === '')) {
      requiredIssue(ctx, [...prefix, describedBy], `is required when ${field} includes OTHER`);
    }
  }
}

const INDIVIDUAL_OTHER_PAIRS: [string, string][] = [
  ['sourceOfFundsCategories', 'sourceOfFundsOtherDescription'],
  ['sourceOfWealthCategories', 'sourceOfWealthOtherDescription'],
  ['purposeOfAccount', 'purposeOfAccountOtherDescription'],
];
const BUSINESS_OTHER_PAIRS: [string, string][] = [
  ['sourceOfFundsCategories', 'sourceOfFundsOtherDescription'],
  ['purposeOfAccount', 'purposeOfAccountOtherDescription'],
];

/** ITIN: `9##-##-####` (an ITIN always starts with 9; its group digits are not checked). */
export const ITIN_PATTERN = /^9\d{2}-\d{2}-\d{4}$/;

/**
 * Individuals: an SSN has the form `###-##-####` and an ITIN `9##-##-####`; countryOfIssuance must be US for both
 *. Whether idType and identifier are both present is a question for verification (MISSING_FIELD),
 * not a refusal: a customer may be created with what the platform has so far.
 */
function checkIndividualIdentity(value: Record<string, unknown>, ctx: Ctx) {
  const { idType, identifier, countryOfIssuance } = value;
  if (typeof identifier === 'string') {
    if (idType === 'SSN' && !SSN_PATTERN.test(identifier)) {
      ctx.addIssue({ code: 'custom', path: ['identifier'], message: 'an SSN must have the form ###-##-####', params: { constraint: { format: 'us-ssn', pattern: SSN_PATTERN.source } } });
    } else if (idType === 'ITIN' && !ITIN_PATTERN.test(identifier)) {
      ctx.addIssue({ code: 'custom', path: ['identifier'], message: 'an ITIN must have the form 9##-##-####', params: { constraint: { pattern: ITIN_PATTERN.source } } });
    }
  }
  if (countryOfIssuance !== undefined && countryOfIssuance !== 'US' && (idType === 'SSN' || idType === 'ITIN')) {
    ctx.addIssue({ code: 'custom', path: ['countryOfIssuance'], message: 'must be US: SSN and ITIN are issued by the US only', params: { constraint: { enum: ['US'] } } });
  }
}

function checkTaxId(businessInfo: Record<string, unknown>, ctx: Ctx) {
  const { taxId, country } = businessInfo;
  if (typeof taxId !== 'string') return;
  const pattern = taxIdPatternFor(typeof country === 'string' ? country : undefined);
  if (!isValidTaxId(taxId, typeof country === 'string' ? country : undefined)) {
    const known = typeof country === 'string' ? TAX_ID_FORMATS[country]?.name : undefined;
    ctx.addIssue({
      code: 'custom', path: ['businessInfo', 'taxId'],
      message: known ? `must be a ${known} for businesses incorporated in ${String(country)}` : 'is not a valid tax identifier',
      params: { constraint: { pattern: pattern.source } },
    });
  }
}


// ---------------------------------------------------------------------------------------------------------------------
// Requests

const individualRules = (v: unknown, ctx: Ctx) => {
  checkIndividualIdentity(rec(v), ctx);
  checkOtherDescriptions(rec(v), ctx, INDIVIDUAL_OTHER_PAIRS);
};
const businessRules = (v: unknown, ctx: Ctx) => {
  const info = rec(rec(v).businessInfo);
  checkTaxId(info, ctx);
  checkOtherDescriptions(info, ctx, BUSINESS_OTHER_PAIRS, ['businessInfo']);
};
/** A PATCH may change one contact channel at a time. */
const oneContactChange = (v: unknown, ctx: Ctx) => {
  const value = rec(v);
  if (value.email !== undefined && value.phoneNumber !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['phoneNumber'], message: 'cannot be changed together with email in one request' });
  }
};

/**
 * The cross-field rules of a whole customer, by type. A PATCH carries only some fields, so the service checks these
 * on the customer as it would be after the update, not on the request alone.
 */
export const CUSTOMER_RULES = {
  INDIVIDUAL: z.looseObject({}).superRefine(individualRules),
  BUSINESS: z.looseObject({}).superRefine(businessRules),
} as const;

/** `POST /customers` for an individual (KYC). */
export const IndividualCustomerCreate = z
  .object({ customerType: z.literal('INDIVIDUAL'), ...commonWritable, ...individualWritable })
  .superRefine(individualRules, onEveryObject)
  .meta({ id: 'IndividualCustomerCreateRequest' });

/** `POST /customers` for a business (KYB). */
export const BusinessCustomerCreate = z
  .object({ customerType: z.literal('BUSINESS'), ...commonWritable, address: Address.optional(), businessInfo: BusinessInfoCreate })
  .superRefine(businessRules, onEveryObject)
  .meta({ id: 'BusinessCustomerCreateRequest' });

/**
 * A business of a bulk CSV import: the create request of a business, with the businessInfo a CSV row can carry (its
 * legal name, and optionally its registration number and tax id): the file has no columns for the incorporation
 * country and date, so they are not required of it. Every other rule is the create request's.
 */
export const BusinessCustomerImport = z
  .object({ customerType: z.literal('BUSINESS'), ...commonWritable, address: Address.optional(), businessInfo: BusinessInfoCreate.partial().required({ legalName: true }) })
  .superRefine(businessRules, onEveryObject);

/** A customer of a bulk CSV import: an individual as `POST /customers` takes it, or a {@link BusinessCustomerImport}. */
export const CustomerImportRequest = z.discriminatedUnion('customerType', [IndividualCustomerCreate, BusinessCustomerImport]);
export type CustomerImportRequest = z.input<typeof CustomerImportRequest>;

/** `POST /customers` body: one variant per `customerType`. */
export const CustomerCreateRequest = z
  .discriminatedUnion('customerType', [IndividualCustomerCreate, BusinessCustomerCreate])
  .meta({ id: 'CustomerCreateRequest' });
export type CustomerCreateRequest = z.input<typeof CustomerCreateRequest>;

/** `PATCH /customers/{id}` for an individual: `customerType` is required, everything else optional. */
export const IndividualCustomerUpdate = z
  .object({ customerType: z.literal('INDIVIDUAL'), ...commonWritable, ...individualWritable })
  .superRefine(oneContactChange, onEveryObject)
  .meta({ id: 'IndividualCustomerUpdateRequest' });

/** `PATCH /customers/{id}` for a business. */
export const BusinessCustomerUpdate = z
  .object({ customerType: z.literal('BUSINESS'), ...commonWritable, address: Address.optional(), businessInfo: BusinessInfoUpdate.optional() })
  .superRefine(oneContactChange, onEveryObject)
  .meta({ id: 'BusinessCustomerUpdateRequest' });

/** `PATCH /customers/{id}` body. */
export const CustomerUpdateRequest = z
  .discriminatedUnion('customerType', [IndividualCustomerUpdate, BusinessCustomerUpdate])
  .meta({ id: 'CustomerUpdateRequest' });
export type CustomerUpdateRequest = z.input<typeof CustomerUpdateRequest>;

// ---------------------------------------------------------------------------------------------------------------------
// Resources

const customerCommon = {
  id: CustomerId,
  platformCustomerId: z.string(),
  region: z.string().optional(),
  currencies: z.array(CurrencyCode),
  email: z.string().optional(),
  phoneNumber: z.string().optional(),
  umaAddress: z.string(),
  endUserTermsConsent: EndUserTermsConsent.optional(),
  contactVerification: ContactVerification.optional(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  isDeleted: z.boolean(),
};

/** An individual customer (KYC). `identifier` is write-only and never returned. */
export const IndividualCustomer = z
  .object({
    customerType: z.literal('INDIVIDUAL'),
    ...customerCommon,
    kycStatus: VerificationState,
    fullName: z.string().optional(),
    birthDate: IsoDate.optional(),
    nationality: z.string().optional(),
    address: Address.optional(),
    idType: z.enum(['SSN', 'ITIN']).optional(),
    countryOfIssuance: z.string().optional(),
    ...individualEdd,
  })
  .meta({ id: 'IndividualCustomer' });
export type IndividualCustomer = z.infer<typeof IndividualCustomer>;

/** A business customer (KYB); responses embed its `beneficialOwners` (the BeneficialOwner resources, response only). */
export const BusinessCustomer = z
  .object({
    customerType: z.literal('BUSINESS'),
    ...customerCommon,
    kybStatus: VerificationState,
    address: Address.optional(),
    businessInfo: BusinessInfo,
    beneficialOwners: z.array(z.record(z.string(), z.unknown())).optional(),
  })
  .meta({ id: 'BusinessCustomer' });
export type BusinessCustomer = z.infer<typeof BusinessCustomer>;

/** A customer as every endpoint and webhook returns it. */
export const Customer = z.discriminatedUnion('customerType', [IndividualCustomer, BusinessCustomer]).meta({ id: 'Customer' });
export type Customer = z.infer<typeof Customer>;

/** `GET /customers` query. */
export const CustomerListQuery = PageQuery.extend({
  platformCustomerId: IdParam.optional(),
  customerType: CustomerType.optional(),
  ...TimeRangeQuery,
  region: cappedString(MAX_LENGTH.id).optional(),
  currency: CurrencyCode.optional(),
  umaAddress: cappedString(MAX_LENGTH.handle).optional(),
  isIncludingDeleted: QueryBoolean.optional(),
});
export type CustomerListQuery = z.input<typeof CustomerListQuery>;

export const CustomerPath = z.object({ customerId: IdParam });

// ---------------------------------------------------------------------------------------------------------------------
// Endpoints (SPEC §4.3, REFERENCE §12)

const tag = 'Customers';
export const customerEndpoints = {
  createCustomer: defineEndpoint({
    operationId: 'createCustomer', method: 'POST', path: '/customers', tag,
    summary: 'Create an individual or business customer',
    body: CustomerCreateRequest,
    response: { status: 201, description: 'The new customer', schema: Customer },
    errors: [409],
  }),
  listCustomers: defineEndpoint({
    operationId: 'listCustomers', method: 'GET', path: '/customers', tag,
    summary: 'List customers with filters',
    query: CustomerListQuery,
    response: { status: 200, description: 'A page of customers', schema: pageOf(Customer) },
  }),
  getEndUserTerms: defineEndpoint({
    operationId: 'getEndUserTerms', method: 'GET', path: '/customers/end-user-terms', tag,
    summary: 'The current end-user terms URL and version',
    response: { status: 200, description: 'Current terms', schema: EndUserTerms },
  }),
  getCustomer: defineEndpoint({
    operationId: 'getCustomer', method: 'GET', path: '/customers/{customerId}', tag,
    summary: 'Retrieve a customer', params: CustomerPath,
    response: { status: 200, description: 'The customer', schema: Customer },
  }),
  updateCustomer: defineEndpoint({
    operationId: 'updateCustomer', method: 'PATCH', path: '/customers/{customerId}', tag,
    summary: 'Update a customer (partial; customerType is required)', params: CustomerPath,
    description:
      'Changing an email that EMAIL_OTP wallet credentials are tied to is a signed action of the wallet: 202 with a ' +
      'SignedRetryChallenge, then the signed retry (see the embedded-wallet operations). 424 ' +
      'EMAIL_OTP_CREDENTIAL_SYNC_FAILED when the tied credentials could not follow the new email (the email is unchanged).',
    body: CustomerUpdateRequest,
    response: { status: 200, description: 'The updated customer', schema: Customer },
    alsoResponds: signedLegs,
    errors: [409, 410, 424],
  }),
  deleteCustomer: defineEndpoint({
    operationId: 'deleteCustomer', method: 'DELETE', path: '/customers/{customerId}', tag,
    summary: 'Delete a customer', params: CustomerPath,
    response: { status: 200, description: 'The deleted customer', schema: Customer },
    errors: [410],
  }),
} as const;

/** True when `id` looks like a customer id. */
export const isCustomerId = (id: string): boolean => idPattern('Customer').test(id);
