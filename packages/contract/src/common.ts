import { z } from 'zod';
import { isCountryCode } from './countries.js';
import { oncePer } from './once-per.js';

/**
 * A check that zod cannot express as a plain JSON-schema keyword. The `format` is reported both in the
 * OpenAPI document and as the FieldConstraint of a failed request, so clients learn what was expected.
 */
export function formattedString(format: string, test: (value: string) => boolean, message: string) {
  return z
    .string()
    .refine(test, { message, params: { constraint: { format } } })
    .meta({ format });
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** Pattern of a resource id `<Type>:<uuid>`. */
/**
 * Options for a refinement that checks fields across an object: it runs even when some fields already failed (so a
 * 400 lists every invalid field at once), but only on an object. A body of `null`, an array or a scalar fails the
 * object check alone, and a refinement never sees it.
 */
export const onEveryObject = {
  when: (payload: { value: unknown }): boolean => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
};

export const idPattern = (type: string): RegExp => new RegExp(`^${type}:${UUID}$`);

/**
 * Schema of a resource id `<Type>:<uuid>`, for example `resourceId('Customer')`. One schema per type, shared by every
 * field that holds such an id (`.meta()` and the like return copies).
 */
export const resourceId = oncePer((type: string): z.ZodString =>
  z.string().regex(idPattern(type), { message: `must be an id of the form ${type}:<uuid>` }));

/** Every resource type that carries an id, plus the ones later issues add. */
export const RESOURCE_TYPES = [
  'Customer', 'ExternalAccount', 'InternalAccount', 'Quote', 'Transaction', 'AuthMethod', 'Request', 'Verification',
  'BeneficialOwner', 'Webhook', 'Session', 'Document', 'Lookup', 'Card', 'CardTransaction', 'Platform', 'Event', 'LedgerEntry', 'ScaChallenge', 'OwnershipChallenge',
  'Stablecoin', 'StablecoinProviderAccount', 'StablecoinOperation', 'Token', 'Agent', 'AgentAction',
  'DelegatedKey', 'CardFundingSource', 'TwoFactorReset', 'Job',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** ISO 3166-1 alpha-2 country code. */
export const CountryCode = formattedString('iso3166-1-alpha-2', isCountryCode, 'must be an ISO 3166-1 alpha-2 country code');

/** ISO 4217 currency code, or a crypto asset code such as BTC or USDC. */
export const CurrencyCode = z.string().regex(/^[A-Z][A-Z0-9]{2,7}$/, { message: 'must be a currency code such as USD or USDC' });

/** Calendar date `YYYY-MM-DD` (dates of birth and incorporation). */
export const IsoDate = z.iso.date({ message: 'must be a date in the form YYYY-MM-DD' });

/** ISO 8601 UTC timestamp. */
export const Timestamp = z.iso.datetime({ message: 'must be an ISO 8601 UTC timestamp' });

/** The largest amount the service accepts, still a safe JavaScript integer. */
export const MAX_AMOUNT = 9_000_000_000_000_000;

/** Money: an integer in the smallest unit of its currency (cents for USD). */
export const MinorUnits = z
  .number({ message: 'must be an integer amount in the smallest currency unit' })
  .int({ message: 'must be an integer amount in the smallest currency unit' })
  .min(0)
  .max(MAX_AMOUNT);

/** A currency as the service describes it. */
export const Currency = z
  .object({ code: CurrencyCode, name: z.string(), symbol: z.string(), decimals: z.number().int().min(0) })
  .meta({ id: 'Currency' });
export type Currency = z.infer<typeof Currency>;

/** An amount together with its currency. */
export const CurrencyAmount = z.object({ amount: MinorUnits, currency: Currency }).meta({ id: 'CurrencyAmount' });
export type CurrencyAmount = z.infer<typeof CurrencyAmount>;

/** E.164 phone number. */
export const PhoneNumber = z.string().regex(/^\+[1-9]\d{1,14}$/, { message: 'must be an E.164 phone number such as +14155550100' });

/** Email address. */
export const Email = z.email({ message: 'must be an email address' });

/** Postal address: line1, postalCode and country are required. */
export const Address = z
  .object({
    line1: z.string().min(1).max(255),
    line2: z.string().max(255).optional(),
    city: z.string().min(1).max(255).optional(),
    state: z.string().min(1).max(255).optional(),
    postalCode: z.string().min(1).max(32),
    country: CountryCode,
  })
  .meta({ id: 'Address' });
export type Address = z.infer<typeof Address>;

/** Identification types shared by customers and beneficial owners. */
export const IdentificationType = z.enum(['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID']).meta({ id: 'IdentificationType' });
export type IdentificationType = z.infer<typeof IdentificationType>;

/** US social security number `###-##-####`. */
export const SSN_PATTERN = /^\d{3}-\d{2}-\d{4}$/;
