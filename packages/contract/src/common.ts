import { z } from 'zod';
import { isCountryCode } from './countries.js';
import { oncePer } from './once-per.js';

/**
 * Length caps of the strings a request carries: the reference service's limit where it states one, else a generous one that no real
 * value reaches (a typo still gets the field's own message). Each is checked first, before any pattern, refinement,
 * checksum or decoding, so an over-long value costs one comparison whatever the field would do with it next
 * (docs/reliability.md, "Malformed input").
 */
export const MAX_LENGTH = {
  /** Ids, codes, tokens, references and other identifiers: resource ids, `platformCustomerId`, account numbers. */
  id: 255,
  /** Names of people, businesses, banks, products and devices. */
  name: 255,
  /** Descriptions and short free text. */
  description: 1024,
  /** Longer free text: reasons, notes, message bodies. */
  text: 4096,
  /** Email, UMA and lightning addresses: 64 characters for the user, `@`, 255 for the domain. */
  handle: 320,
  /** URLs. */
  url: 2048,
  /** Dates and timestamps (`YYYY-MM-DD`, ISO 8601): far longer than any. */
  date: 64,
  /** An IP address as text (`ipAddress`: an IPv6 address with an IPv4 tail is 45 characters). */
  ipAddress: 45,
  /** Encoded binary data: base64url WebAuthn payloads, JWTs, encrypted bundles. */
  encoded: 65_536,
} as const;

/**
 * zod's `maxLength` check, except that a value over the cap stops the checks after it on that value as a value of the
 * wrong type does: no pattern, refinement or format chained after it runs on the value. zod's own `abort: true` would
 * also stop the cross-field refinements of every object holding the value (`onEveryObject`), and a 400 would no longer
 * list every invalid field; this one leaves them running (they read what they need, in linear time).
 */
function lengthCap(max: number): z.core.$ZodCheck<string> {
  const cap = z.maxLength(max);
  const check = cap._zod.check;
  cap._zod.check = (payload) => {
    const before = payload.issues.length;
    check(payload);
    // An issue without `continue` ends this value's checks (zod's "aborted"), not its parents' (only `continue: false` does).
    for (let i = before; i < payload.issues.length; i++) delete (payload.issues[i] as { continue?: boolean }).continue;
  };
  return cap;
}

/**
 * A string of at most `max` characters, its length checked before every check chained after it: a longer value fails
 * with `constraint.maxLength` alone, and nothing after the cap (pattern, refinement, format) runs on it.
 */
export const cappedString = (max: number = MAX_LENGTH.id): z.ZodString => z.string().check(lengthCap(max));

/**
 * A check that zod cannot express as a plain JSON-schema keyword. The `format` is reported both in the
 * OpenAPI document and as the FieldConstraint of a failed request, so clients learn what was expected. The test runs
 * only on a value within `max` characters.
 */
export function formattedString(format: string, test: (value: string) => boolean, message: string, max: number = MAX_LENGTH.id) {
  return cappedString(max)
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
  cappedString(MAX_LENGTH.id).regex(idPattern(type), { message: `must be an id of the form ${type}:<uuid>` }));

/**
 * A path parameter or query filter naming a record by id: any string of at most {@link MAX_LENGTH.id} characters (one
 * nobody has is a 404, or an empty list).
 */
export const IdParam = cappedString(MAX_LENGTH.id);

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
export const CurrencyCode = cappedString(MAX_LENGTH.id).regex(/^[A-Z][A-Z0-9]{2,7}$/, { message: 'must be a currency code such as USD or USDC' });

/** Calendar date `YYYY-MM-DD` (dates of birth and incorporation). */
export const IsoDate = cappedString(MAX_LENGTH.date).date({ message: 'must be a date in the form YYYY-MM-DD' });

/** ISO 8601 UTC timestamp. */
export const Timestamp = cappedString(MAX_LENGTH.date).datetime({ message: 'must be an ISO 8601 UTC timestamp' });

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
  .object({ code: CurrencyCode, name: cappedString(MAX_LENGTH.name), symbol: cappedString(MAX_LENGTH.id), decimals: z.number().int().min(0) })
  .meta({ id: 'Currency' });
export type Currency = z.infer<typeof Currency>;

/** An amount together with its currency. */
export const CurrencyAmount = z.object({ amount: MinorUnits, currency: Currency }).meta({ id: 'CurrencyAmount' });
export type CurrencyAmount = z.infer<typeof CurrencyAmount>;

/** E.164 phone number. */
export const PhoneNumber = cappedString(MAX_LENGTH.id).regex(/^\+[1-9]\d{1,14}$/, { message: 'must be an E.164 phone number such as +14155550100' });

/** Email address. */
export const Email = cappedString(MAX_LENGTH.handle).email({ message: 'must be an email address' });

/** Postal address: line1, postalCode and country are required. */
export const Address = z
  .object({
    line1: cappedString(255).min(1),
    line2: cappedString(255).optional(),
    city: cappedString(255).min(1).optional(),
    state: cappedString(255).min(1).optional(),
    postalCode: cappedString(32).min(1),
    country: CountryCode,
  })
  .meta({ id: 'Address' });
export type Address = z.infer<typeof Address>;

/** Identification types shared by customers and beneficial owners. */
export const IdentificationType = z.enum(['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID']).meta({ id: 'IdentificationType' });
export type IdentificationType = z.infer<typeof IdentificationType>;

/** US social security number `###-##-####`. */
export const SSN_PATTERN = /^\d{3}-\d{2}-\d{4}$/;
