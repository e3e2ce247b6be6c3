import { z } from 'zod';
import { LIGHTNING_ADDRESS_MAX_LENGTH, LIGHTNING_INVOICE_MAX_LENGTH, SPARK_ADDRESS_MAX_LENGTH } from './account-checks.js';
import {
  Address, CountryCode, CurrencyCode, Email, IdParam, IsoDate, MAX_LENGTH, Timestamp, cappedString, onEveryObject, resourceId,
} from './common.js';
import { CustomerId } from './customers.js';
import type { FieldError } from './errors.js';
import { defineEndpoint } from './endpoint.js';
import { PageQuery, pageOf } from './pagination.js';
import { oncePer } from './once-per.js';

// ---------------------------------------------------------------------------------------------------------------------
// Enumerations (SPEC §2.1, §2.2, REFERENCE §3)

/** Every `accountInfo.accountType`. `LIGHTNING_ACCOUNT` is only a response alias of `LIGHTNING`. */
export const EXTERNAL_ACCOUNT_TYPES = [
  'AED_ACCOUNT', 'BDT_ACCOUNT', 'BRL_ACCOUNT', 'BWP_ACCOUNT', 'CAD_ACCOUNT', 'COP_ACCOUNT', 'DKK_ACCOUNT', 'EGP_ACCOUNT',
  'EUR_ACCOUNT', 'GBP_ACCOUNT', 'GHS_ACCOUNT', 'GTQ_ACCOUNT', 'HKD_ACCOUNT', 'HTG_ACCOUNT', 'IDR_ACCOUNT', 'INR_ACCOUNT',
  'JMD_ACCOUNT', 'KES_ACCOUNT', 'MWK_ACCOUNT', 'MXN_ACCOUNT', 'MYR_ACCOUNT', 'NGN_ACCOUNT', 'PHP_ACCOUNT', 'PKR_ACCOUNT',
  'RWF_ACCOUNT', 'SGD_ACCOUNT', 'SLV_ACCOUNT', 'THB_ACCOUNT', 'TZS_ACCOUNT', 'UGX_ACCOUNT', 'USD_ACCOUNT', 'VND_ACCOUNT',
  'XAF_ACCOUNT', 'XOF_ACCOUNT', 'ZAR_ACCOUNT', 'ZMW_ACCOUNT', 'SWIFT_ACCOUNT', 'BASE_WALLET', 'ETHEREUM_WALLET', 'LIGHTNING',
  'LIGHTNING_ACCOUNT', 'POLYGON_WALLET', 'PLASMA_WALLET', 'SOLANA_WALLET', 'SPARK_WALLET', 'TRON_WALLET', 'CNY_ACCOUNT',
  'ILS_ACCOUNT',
] as const;

/** The discriminator of `accountInfo`. */
export const ExternalAccountType = z.enum(EXTERNAL_ACCOUNT_TYPES).meta({ id: 'ExternalAccountType' });
export type ExternalAccountType = z.infer<typeof ExternalAccountType>;

/** Self-custody or hosted crypto wallets: no payment rails, optional wallet-form beneficiary. */
export const WALLET_ACCOUNT_TYPES = [
  'BASE_WALLET', 'ETHEREUM_WALLET', 'POLYGON_WALLET', 'PLASMA_WALLET', 'SOLANA_WALLET', 'SPARK_WALLET', 'TRON_WALLET',
] as const satisfies readonly ExternalAccountType[];
export type WalletAccountType = (typeof WALLET_ACCOUNT_TYPES)[number];
/** True for the `*_WALLET` account types. */
export const isWalletAccountType = (type: string): type is WalletAccountType => (WALLET_ACCOUNT_TYPES as readonly string[]).includes(type);

/** Payment rails (quotes, transactions, rates). */
export const PAYMENT_RAILS = [
  'ACH', 'ACH_COLOMBIA', 'BANK_TRANSFER', 'BRE_B', 'CIPS', 'FAST', 'FASTER_PAYMENTS', 'FEDNOW', 'INSTAPAY', 'MOBILE_MONEY', 'NEFT',
  'PAYNOW', 'PESONET', 'PIX', 'RTGS', 'RTP', 'SEPA', 'SEPA_INSTANT', 'SPEI', 'SWIFT', 'UNIONPAY', 'UPI', 'WIRE',
] as const;
export const PaymentRail = z.enum(PAYMENT_RAILS).meta({ id: 'PaymentRail' });
export type PaymentRail = z.infer<typeof PaymentRail>;

/** External-account states. */
export const ExternalAccountStatus = z
  .enum(['PENDING', 'ACTIVE', 'PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED', 'UNDER_REVIEW', 'INACTIVE'])
  .meta({ id: 'ExternalAccountStatus' });
export type ExternalAccountStatus = z.infer<typeof ExternalAccountStatus>;

/** Whether the account belongs to the customer itself or to someone else. */
export const OwnershipType = z.enum(['FIRST_PARTY', 'THIRD_PARTY']).meta({ id: 'OwnershipType' });
export type OwnershipType = z.infer<typeof OwnershipType>;

/** Result of matching the beneficiary name against the account holder. */
export const BeneficiaryVerificationStatus = z
  .enum(['MATCHED', 'PARTIAL_MATCH', 'NOT_MATCHED', 'UNSUPPORTED', 'CHECKED_BY_RECEIVING_FI', 'PENDING'])
  .meta({ id: 'BeneficiaryVerificationStatus' });
export type BeneficiaryVerificationStatus = z.infer<typeof BeneficiaryVerificationStatus>;

export const ExternalAccountId = resourceId('ExternalAccount').meta({ id: 'ExternalAccountId' });

// ---------------------------------------------------------------------------------------------------------------------
// Beneficiary (REFERENCE §3)

/**
 * Request and response variants differ in fields (requests carry no server-set `paymentRails`); both ignore fields
 * they do not know, as the reference does (a platform in strict mode is told about them: see unknown-fields.ts).
 */
type Mode = 'request' | 'response';
type Shape = Readonly<Record<string, z.ZodType>>;
const objectFor = <S extends Shape>(_mode: Mode, shape: S) => z.object(shape) as unknown as z.ZodObject<{ -readonly [K in keyof S]: S[K] }, z.core.$strip>;

/** Text with the length limit the API states for the field. */
const text = (max = 255) => cappedString(max).min(1);
/** Names (of a beneficiary, a VASP): the reference states no limit; {@link MAX_LENGTH.name}. */
const nameText = text(MAX_LENGTH.name);
/** Identifiers the reference does not limit (registration numbers, tax ids, bank codes, an iban without pattern). */
const idText = text(MAX_LENGTH.id);
/**
 * A beneficiary's `email`, `phoneNumber` and `countryOfResidence`: plain strings, as the reference types them, capped
 * at the lengths the customer fields have. Their forms are checked on a platform in strict mode only
 * ({@link checkBeneficiaryFormats}).
 */
const beneficiaryEmail = cappedString(MAX_LENGTH.handle);
const beneficiaryPhone = cappedString(MAX_LENGTH.id);
const beneficiaryCountry = cappedString(MAX_LENGTH.id);
const beneficiaryType = <T extends 'INDIVIDUAL' | 'BUSINESS'>(type: T) => z.literal(type);

/** The generic phone pattern of the API, which a strict platform checks a beneficiary's `phoneNumber` against. */
const BENEFICIARY_PHONE_PATTERN = /^\+[0-9]{6,14}$/;

/** The form checks of a strict platform, per beneficiary field: the field's own schema and the error it gives. */
const BENEFICIARY_FORMATS: readonly { field: 'email' | 'phoneNumber' | 'countryOfResidence'; schema: z.ZodType; message: string; constraint: FieldError['constraint'] }[] = [
  { field: 'email', schema: Email, message: 'must be an email address', constraint: { format: 'email' } },
  {
    field: 'phoneNumber', schema: z.string().regex(BENEFICIARY_PHONE_PATTERN), message: 'must be a phone number of the form +<digits>',
    constraint: { pattern: BENEFICIARY_PHONE_PATTERN.source },
  },
  { field: 'countryOfResidence', schema: CountryCode, message: 'must be an ISO 3166-1 alpha-2 country code', constraint: { format: 'iso3166-1-alpha-2' } },
];

/**
 * The form errors of an accountInfo's beneficiary (`accountInfo.beneficiary.<field>`): an email address, a phone number
 * `+<digits>`, an ISO 3166-1 alpha-2 country. Only a platform in strict mode checks them; fields that are absent or
 * not strings are left to the schema.
 */
export function checkBeneficiaryFormats(accountInfo: unknown): FieldError[] {
  const beneficiary = typeof accountInfo === 'object' && accountInfo !== null ? (accountInfo as { beneficiary?: unknown }).beneficiary : undefined;
  if (typeof beneficiary !== 'object' || beneficiary === null) return [];
  const errors: FieldError[] = [];
  for (const { field, schema, message, constraint } of BENEFICIARY_FORMATS) {
    const value = (beneficiary as Record<string, unknown>)[field];
    if (typeof value === 'string' && !schema.safeParse(value).success) errors.push({ field: `accountInfo.beneficiary.${field}`, message, constraint });
  }
  return errors;
}

const individualFields = {
  beneficiaryType: beneficiaryType('INDIVIDUAL'),
  fullName: nameText,
  birthDate: IsoDate.optional(),
  nationality: CountryCode.optional(),
  email: beneficiaryEmail.optional(),
  phoneNumber: beneficiaryPhone.optional(),
  countryOfResidence: beneficiaryCountry.optional(),
  address: Address.optional(),
};
type IndividualField = 'birthDate' | 'nationality' | 'email' | 'phoneNumber' | 'countryOfResidence' | 'address';

const businessFields = {
  beneficiaryType: beneficiaryType('BUSINESS'),
  legalName: nameText,
  registrationNumber: idText.optional(),
  taxId: idText.optional(),
  email: beneficiaryEmail.optional(),
  phoneNumber: beneficiaryPhone.optional(),
  countryOfResidence: beneficiaryCountry.optional(),
  address: Address.optional(),
};

/** A business beneficiary, the same for every currency. */
export const BusinessBeneficiary = objectFor('response', businessFields).meta({ id: 'BusinessBeneficiary' });
const BusinessBeneficiaryRequest = objectFor('request', businessFields).meta({ id: 'BusinessBeneficiaryRequest' });
/** An individual beneficiary of a fiat account: `fullName` is required. */
export const IndividualBeneficiary = objectFor('response', individualFields).meta({ id: 'IndividualBeneficiary' });
const IndividualBeneficiaryRequest = objectFor('request', individualFields).meta({ id: 'IndividualBeneficiaryRequest' });

/** The holder of a fiat account, by `beneficiaryType`. */
export const Beneficiary = z
  .discriminatedUnion('beneficiaryType', [IndividualBeneficiary, BusinessBeneficiary])
  .meta({ id: 'Beneficiary' });
export type Beneficiary = z.infer<typeof Beneficiary>;
/** `beneficiary` as a create request writes it. */
export const BeneficiaryRequest = z
  .discriminatedUnion('beneficiaryType', [IndividualBeneficiaryRequest, BusinessBeneficiaryRequest])
  .meta({ id: 'BeneficiaryRequest' });

const walletIndividualFields = {
  beneficiaryType: beneficiaryType('INDIVIDUAL'),
  fullName: text(),
  countryOfResidence: beneficiaryCountry,
};
/** The wallet form: an individual gives only name and country of residence (both required). */
export const WalletBeneficiary = z
  .discriminatedUnion('beneficiaryType', [objectFor('response', walletIndividualFields), BusinessBeneficiary])
  .meta({ id: 'WalletBeneficiary' });
export type WalletBeneficiary = z.infer<typeof WalletBeneficiary>;
const WalletBeneficiaryRequest = z
  .discriminatedUnion('beneficiaryType', [objectFor('request', walletIndividualFields), BusinessBeneficiaryRequest])
  .meta({ id: 'WalletBeneficiaryRequest' });

/** The beneficiary schema of an account type, in both modes. */
interface BeneficiaryPair {
  readonly request: z.ZodType;
  readonly response: z.ZodType;
}
const STANDARD_BENEFICIARY = { request: BeneficiaryRequest, response: Beneficiary } as const;
const WALLET_BENEFICIARY = { request: WalletBeneficiaryRequest.optional(), response: WalletBeneficiary.optional() } as const;

type RequireFields<S, R extends keyof S> = Omit<S, R> & { [K in R]: S[K] extends z.ZodOptional<infer I> ? I : S[K] };
const requireFields = <S extends Shape, R extends keyof S & string>(shape: S, keys: readonly R[]) =>
  ({ ...shape, ...Object.fromEntries(keys.map((key) => [key, (shape[key] as unknown as z.ZodOptional).unwrap()])) }) as unknown as RequireFields<S, R>;

/**
 * A currency whose individual beneficiaries need more than `fullName`: `requires` makes optional fields required,
 * `extra` adds currency-specific optional fields. Business beneficiaries are the same everywhere.
 */
function beneficiaryFor<const R extends IndividualField, E extends Shape = {}>(requires: readonly R[], extra?: E) {
  const individual = requireFields({ ...individualFields, ...(extra ?? {}) } as typeof individualFields & E, requires);
  const build = <M extends Mode>(mode: M) =>
    z.discriminatedUnion('beneficiaryType', [
      objectFor(mode, individual),
      mode === 'request' ? BusinessBeneficiaryRequest : BusinessBeneficiary,
    ]);
  return { request: build('request'), response: build('response') };
}

// ---------------------------------------------------------------------------------------------------------------------
// accountInfo per accountType (REFERENCE §3), as data

const digits = (min: number, max = min) =>
  cappedString(MAX_LENGTH.id).regex(new RegExp(`^[0-9]{${min === max ? min : `${min},${max}`}}$`), {
    message: min === max ? `must be ${min} digits` : `must be ${min} to ${max} digits`,
  });
const pattern = (re: RegExp, what: string) => cappedString(MAX_LENGTH.id).regex(re, { message: `must be ${what}` });

const swiftCode = pattern(/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/, 'a SWIFT/BIC code of 8 or 11 characters');
const phoneNumber = pattern(/^\+[0-9]{6,14}$/, 'a phone number of the form +<digits>');
const phoneIn = (prefix: string, local: string) => pattern(new RegExp(`^\\+${prefix}[0-9]{${local}}$`), `a +${prefix} phone number`);
const accountNumber = text(34);
const bankName = text();
const provider = text();
const bankAccountType = z.enum(['CHECKING', 'SAVINGS']);
const iban = (re: RegExp) => pattern(re, 'an IBAN');

interface AccountInfoRow {
  readonly required: Shape;
  readonly optional: Shape;
  /** Rails the service sets on responses (`paymentRails`); empty for wallets and Lightning. */
  readonly paymentRails: readonly PaymentRail[];
  readonly beneficiary: BeneficiaryPair | null;
  /** A rule across fields, for both modes. */
  readonly check?: (value: Record<string, unknown>, ctx: z.core.$RefinementCtx) => void;
}

const fiat = <R extends Shape, O extends Shape, const P extends readonly [PaymentRail, ...PaymentRail[]], B extends BeneficiaryPair = typeof STANDARD_BENEFICIARY>(
  required: R, optional: O, paymentRails: P, beneficiary?: B,
) => ({ required, optional, paymentRails, beneficiary: (beneficiary ?? STANDARD_BENEFICIARY) as B });

/**
 * A wallet: the reference gives `address` no pattern (a lenient platform checks the form of some chains, a strict one
 * their checksums: account-checks.ts). No address is longer than {@link MAX_LENGTH.id}, but a Spark one
 * ({@link SPARK_ADDRESS_MAX_LENGTH}).
 */
const wallet = (addressMax: number = MAX_LENGTH.id) => ({
  required: { address: text(addressMax) },
  optional: { vaspName: nameText },
  paymentRails: [] as const,
  beneficiary: WALLET_BENEFICIARY,
});

const LIGHTNING_DESTINATIONS = ['invoice', 'bolt12', 'lightningAddress'] as const;
const exactlyOneLightningDestination = (value: Record<string, unknown>, ctx: z.core.$RefinementCtx) => {
  const given = LIGHTNING_DESTINATIONS.filter((key) => value[key] !== undefined);
  if (given.length !== 1) {
    ctx.addIssue({
      code: 'custom', path: given.length === 0 ? ['invoice'] : [given[1] as string],
      message: 'exactly one of invoice, bolt12 or lightningAddress is required',
    });
  }
};

const none = {};
const mobileMoney = (phone: z.ZodType = phoneNumber) => fiat({ phoneNumber: phone, provider }, none, ['MOBILE_MONEY']);
const bankNameOnly = <O extends Shape>(optional: O) => fiat({ bankName }, optional, ['BANK_TRANSFER', 'MOBILE_MONEY']);
const swiftBank = () => fiat({ bankName, accountNumber, swiftCode }, none, ['BANK_TRANSFER']);

/**
 * The account types, one row per accountType: required fields, optional fields, the rails responses carry, and the
 * beneficiary form. Request `accountInfo` is the response minus `paymentRails`.
 */
export const ACCOUNT_INFO_TABLE = {
  AED_ACCOUNT: fiat({ iban: iban(/^AE[0-9]{21}$/) }, { swiftCode }, ['BANK_TRANSFER'], beneficiaryFor(['address'])),
  BDT_ACCOUNT: bankNameOnly({ accountNumber, branchCode: digits(5), swiftCode, phoneNumber }),
  BRL_ACCOUNT: fiat({ pixKey: text(77), pixKeyType: z.enum(['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM']), taxId: digits(11, 14) }, none, ['PIX']),
  BWP_ACCOUNT: mobileMoney(),
  CAD_ACCOUNT: fiat({ bankCode: digits(3), branchCode: digits(5), accountNumber: digits(7, 12) }, none, ['BANK_TRANSFER'],
    beneficiaryFor([], { registrationNumber: text(100).optional() })),
  CNY_ACCOUNT: bankNameOnly({ accountNumber, phoneNumber }),
  COP_ACCOUNT: fiat({ bankName }, { accountNumber, bankAccountType, phoneNumber }, ['BANK_TRANSFER', 'MOBILE_MONEY'],
    beneficiaryFor([], { documentType: z.enum(['CC', 'CE', 'TI', 'NIT', 'PP']).optional(), documentNumber: text(50).optional() })),
  DKK_ACCOUNT: fiat({ iban: iban(/^DK[0-9]{16}$/) }, { swiftCode }, ['SEPA', 'SEPA_INSTANT']),
  EGP_ACCOUNT: bankNameOnly({ iban: iban(/^EG[0-9]{27}$/), phoneNumber }),
  EUR_ACCOUNT: fiat({ iban: iban(/^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$/) }, { swiftCode }, ['SEPA', 'SEPA_INSTANT'], beneficiaryFor(['countryOfResidence'])),
  GBP_ACCOUNT: fiat({ sortCode: digits(6), accountNumber: digits(8) }, none, ['FASTER_PAYMENTS']),
  GHS_ACCOUNT: bankNameOnly({ accountNumber, phoneNumber }),
  GTQ_ACCOUNT: fiat({ accountNumber, bankAccountType, bankName }, none, ['BANK_TRANSFER'], beneficiaryFor(['countryOfResidence', 'phoneNumber'])),
  HKD_ACCOUNT: swiftBank(),
  HTG_ACCOUNT: fiat({ phoneNumber }, none, ['MOBILE_MONEY']),
  IDR_ACCOUNT: fiat({ bankName, accountNumber, swiftCode, phoneNumber: phoneIn('62', '9,12') }, none, ['BANK_TRANSFER']),
  INR_ACCOUNT: fiat(none, {
    vpa: pattern(/^[a-zA-Z0-9.\-_]+@[a-zA-Z0-9]+$/, 'a UPI virtual payment address such as name@bank'),
    accountNumber: digits(9, 18),
    ifsc: pattern(/^[A-Z]{4}0[A-Z0-9]{6}$/, 'an IFSC code'),
    rail: text(32),
    bankName,
  }, ['UPI', 'NEFT', 'RTGS']),
  JMD_ACCOUNT: fiat({ accountNumber, branchCode: digits(5), bankAccountType, bankName }, none, ['BANK_TRANSFER'], beneficiaryFor(['address', 'phoneNumber'])),
  KES_ACCOUNT: mobileMoney(phoneIn('254', '9')),
  MWK_ACCOUNT: mobileMoney(),
  MXN_ACCOUNT: fiat({ clabeNumber: digits(18) }, none, ['SPEI']),
  MYR_ACCOUNT: swiftBank(),
  NGN_ACCOUNT: fiat({ accountNumber: digits(10), bankName }, none, ['BANK_TRANSFER']),
  PHP_ACCOUNT: fiat({ bankName, accountNumber: digits(8, 16) }, none, ['BANK_TRANSFER']),
  PKR_ACCOUNT: bankNameOnly({ accountNumber, iban: iban(/^PK[0-9]{2}[A-Z]{4}[0-9]{16}$/), phoneNumber }),
  RWF_ACCOUNT: mobileMoney(phoneIn('250', '9')),
  SGD_ACCOUNT: fiat({ accountNumber, swiftCode }, { bankName }, ['PAYNOW', 'FAST', 'BANK_TRANSFER']),
  SLV_ACCOUNT: fiat(none, { bankName, accountNumber, bankAccountType, phoneNumber }, ['BANK_TRANSFER', 'MOBILE_MONEY']),
  THB_ACCOUNT: swiftBank(),
  TZS_ACCOUNT: mobileMoney(phoneIn('255', '9')),
  UGX_ACCOUNT: mobileMoney(),
  USD_ACCOUNT: fiat({ accountNumber, routingNumber: digits(9) }, {
    bankName: text(140),
    bankAccountType: bankAccountType.default('CHECKING'),
    // WIRE only:
    intermediaryBankName: text(140),
    intermediaryRoutingNumber: digits(9),
    fiToFiInformation: text(210),
  }, ['ACH', 'WIRE', 'RTP', 'FEDNOW']),
  VND_ACCOUNT: swiftBank(),
  XAF_ACCOUNT: fiat({ phoneNumber, provider, region: z.enum(['CM', 'CG']) }, none, ['MOBILE_MONEY']),
  XOF_ACCOUNT: fiat({ phoneNumber, provider, region: z.enum(['BJ', 'CI', 'SN', 'TG']) }, none, ['MOBILE_MONEY']),
  ZAR_ACCOUNT: fiat({ accountNumber: digits(9, 13), bankName }, none, ['BANK_TRANSFER']),
  ZMW_ACCOUNT: mobileMoney(phoneIn('260', '9')),
  // REFERENCE §3 gives the SWIFT iban no pattern (IBAN-only corridors such as BR and GB).
  SWIFT_ACCOUNT: fiat({ country: CountryCode, swiftCode, bankName }, { accountNumber, iban: idText }, ['SWIFT']),
  // ILS_ACCOUNT is listed by SPEC §2.1 without fields (REFERENCE §3 has no row): every bank detail is optional.
  ILS_ACCOUNT: fiat({}, { iban: idText, accountNumber, bankName, swiftCode, bankCode: idText, branchCode: idText }, ['BANK_TRANSFER']),
  BASE_WALLET: wallet(),
  ETHEREUM_WALLET: wallet(),
  POLYGON_WALLET: wallet(),
  PLASMA_WALLET: wallet(),
  SOLANA_WALLET: wallet(),
  SPARK_WALLET: wallet(SPARK_ADDRESS_MAX_LENGTH),
  TRON_WALLET: wallet(),
  LIGHTNING: {
    required: none,
    optional: { invoice: text(LIGHTNING_INVOICE_MAX_LENGTH), bolt12: text(LIGHTNING_INVOICE_MAX_LENGTH), lightningAddress: text(LIGHTNING_ADDRESS_MAX_LENGTH) },
    paymentRails: [] as const,
    beneficiary: null,
    check: exactlyOneLightningDestination,
  },
} as const satisfies Record<Exclude<ExternalAccountType, 'LIGHTNING_ACCOUNT'>, AccountInfoRow>;

// ---------------------------------------------------------------------------------------------------------------------
// Building the accountInfo schemas from the table

type Rows = typeof ACCOUNT_INFO_TABLE;
/** Every accountType a request may use (all but the response alias `LIGHTNING_ACCOUNT`). */
export type AccountInfoRequestType = keyof Rows;
type RowOf<K extends ExternalAccountType> = Rows[K extends 'LIGHTNING_ACCOUNT' ? 'LIGHTNING' : K];
const rowOf = (type: ExternalAccountType): AccountInfoRow => ACCOUNT_INFO_TABLE[type === 'LIGHTNING_ACCOUNT' ? 'LIGHTNING' : type];

type Flatten<T> = { [K in keyof T]: T[K] } & {};
type Optionalize<S> = { -readonly [K in keyof S]: S[K] extends z.ZodType ? z.ZodOptional<S[K]> : never };
/**
 * Each account type's shape is built for requests, for responses and for payment instructions: the field schemas are
 * made once per table row and shared (a schema holds no state), which keeps the contract quick to load.
 */
const optionalize = oncePer((shape: Shape): Record<string, z.ZodType> =>
  Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, schema.optional()])));
const sharedFields = oncePer((accountType: ExternalAccountType): { accountType: z.ZodType; paymentRails?: z.ZodType } => {
  const { paymentRails } = rowOf(accountType);
  return {
    accountType: z.literal(accountType),
    ...(paymentRails.length > 0 ? { paymentRails: z.array(z.enum(paymentRails as [PaymentRail])).min(1) } : {}),
  };
});
type RailsShape<P> = P extends readonly [PaymentRail, ...PaymentRail[]]
  ? { paymentRails: z.ZodArray<z.ZodEnum<{ [R in P[number]]: R }>> }
  : {};
type BeneficiaryShape<B, M extends Mode> = B extends BeneficiaryPair ? { beneficiary: B[M] } : {};
type DetailsShape<K extends ExternalAccountType, Rails extends boolean> = { accountType: z.ZodLiteral<K> } & {
  -readonly [F in keyof RowOf<K>['required']]: RowOf<K>['required'][F];
} & Optionalize<RowOf<K>['optional']> & (Rails extends true ? RailsShape<RowOf<K>['paymentRails']> : {});

const detailsShape = (accountType: ExternalAccountType, rails: boolean): Record<string, z.ZodType> => {
  const row = rowOf(accountType);
  const shared = sharedFields(accountType);
  return {
    accountType: shared.accountType,
    ...row.required,
    ...optionalize(row.optional),
    ...(rails && shared.paymentRails ? { paymentRails: shared.paymentRails } : {}),
  };
};

const withCheck = <S extends z.ZodObject>(accountType: ExternalAccountType, schema: S): S => {
  const { check } = rowOf(accountType);
  if (!check) return schema;
  return schema.superRefine((value, ctx) => check(value as Record<string, unknown>, ctx), onEveryObject) as S;
};

/**
 * The account's own details without beneficiary: `accountType`, required and optional fields, and (`rails` true)
 * the `paymentRails` responses carry. Payment instructions (accounts.ts) build on this.
 */
export function accountDetails<K extends ExternalAccountType, Rails extends boolean>(accountType: K, rails: Rails) {
  return withCheck(accountType, z.object(detailsShape(accountType, rails))) as unknown as z.ZodObject<
    Flatten<DetailsShape<K, Rails>>, z.core.$strip
  >;
}

const pascal = (type: string) =>
  type.toLowerCase().split('_').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');

/** One `accountInfo` variant: a request (no `paymentRails`) or a response (with `paymentRails`). */
function accountInfoVariant<K extends ExternalAccountType, M extends Mode>(accountType: K, mode: M) {
  const { beneficiary } = rowOf(accountType);
  const shape = {
    ...detailsShape(accountType, mode === 'response'),
    ...(beneficiary ? { beneficiary: beneficiary[mode] } : {}),
  };
  const id = `${pascal(accountType)}Info${mode === 'request' ? 'Request' : ''}`;
  return withCheck(accountType, objectFor(mode, shape)).meta({ id }) as unknown as z.ZodObject<
    Flatten<DetailsShape<K, M extends 'response' ? true : false> & BeneficiaryShape<RowOf<K>['beneficiary'], M>>,
    z.core.$strip
  >;
}

type VariantOf<K extends ExternalAccountType, M extends Mode> = ReturnType<typeof accountInfoVariant<K, M>>;
type VariantMap<T extends ExternalAccountType, M extends Mode> = { [K in T]: VariantOf<K, M> };
const variants = <T extends ExternalAccountType, M extends Mode>(types: readonly T[], mode: M) =>
  Object.fromEntries(types.map((type) => [type, accountInfoVariant(type, mode)])) as unknown as VariantMap<T, M>;

const REQUEST_TYPES = Object.keys(ACCOUNT_INFO_TABLE) as AccountInfoRequestType[];

/** Bank and mobile-money account types: every request type but the wallets and Lightning. */
export type FiatAccountType = Exclude<AccountInfoRequestType, WalletAccountType | 'LIGHTNING'>;
export const FIAT_ACCOUNT_TYPES = REQUEST_TYPES.filter((type) => ACCOUNT_INFO_TABLE[type].paymentRails.length > 0) as FiatAccountType[];

/** `accountInfo` request schema of each accountType (for the engine's per-type validation). */
export const ACCOUNT_INFO_REQUEST_VARIANTS = variants(REQUEST_TYPES, 'request');
/** `accountInfo` response schema of each accountType, including the `LIGHTNING_ACCOUNT` alias. */
export const ACCOUNT_INFO_RESPONSE_VARIANTS = variants(EXTERNAL_ACCOUNT_TYPES, 'response');

type UnionOf<V> = z.ZodDiscriminatedUnion<Extract<V[keyof V], z.ZodObject>[], 'accountType'>;
const unionOf = <V extends Record<string, z.ZodObject>>(map: V) =>
  z.discriminatedUnion('accountType', Object.values(map) as unknown as [z.ZodObject, ...z.ZodObject[]]) as unknown as UnionOf<V>;

/** `accountInfo` of an ExternalAccount as the service returns it (fiat variants carry `paymentRails`). */
export const ExternalAccountInfo = unionOf(ACCOUNT_INFO_RESPONSE_VARIANTS).meta({ id: 'ExternalAccountInfo' });
export type ExternalAccountInfo = z.infer<typeof ExternalAccountInfo>;

/** `accountInfo` of a create request: the response minus `paymentRails`; fiat variants require `beneficiary`. */
export const ExternalAccountInfoRequest = unionOf(ACCOUNT_INFO_REQUEST_VARIANTS).meta({ id: 'ExternalAccountInfoRequest' });
export type ExternalAccountInfoRequest = z.input<typeof ExternalAccountInfoRequest>;

// ---------------------------------------------------------------------------------------------------------------------
// Resource and requests (SPEC §2.1, §2.3, §4.4; REFERENCE §2.3)

/** A bank account or crypto wallet outside the service, owned by a customer or (without `customerId`) the platform. */
export const ExternalAccount = z
  .object({
    id: ExternalAccountId,
    /** Absent or null when the account is on behalf of the platform. */
    customerId: CustomerId.nullish(),
    status: ExternalAccountStatus,
    platformAccountId: z.string().optional(),
    ownershipType: OwnershipType.optional(),
    currency: CurrencyCode,
    /** At most one per customer: incoming UMA payments land here instead of the primary internal account. */
    defaultUmaDepositAccount: z.boolean().optional(),
    beneficiaryVerificationStatus: BeneficiaryVerificationStatus.optional(),
    beneficiaryVerifiedData: z.object({ fullName: z.string().optional() }).optional(),
    accountInfo: ExternalAccountInfo,
  })
  .meta({ id: 'ExternalAccount' });
export type ExternalAccount = z.infer<typeof ExternalAccount>;

const platformAccountFields = {
  currency: CurrencyCode,
  platformAccountId: idText,
  ownershipType: OwnershipType.optional(),
  accountInfo: ExternalAccountInfoRequest,
};

/** `POST /platform/external-accounts`: an account on behalf of the platform. */
export const PlatformExternalAccountCreateRequest = z
  .object({ ...platformAccountFields, platformAccountId: platformAccountFields.platformAccountId.optional() })
  .meta({ id: 'PlatformExternalAccountCreateRequest' });
export type PlatformExternalAccountCreateRequest = z.input<typeof PlatformExternalAccountCreateRequest>;

/** `POST /customers/external-accounts`: omitting `customerId` creates a platform account. */
export const ExternalAccountCreateRequest = PlatformExternalAccountCreateRequest.extend({
  customerId: CustomerId.optional(),
  defaultUmaDepositAccount: z.boolean().default(false),
}).meta({ id: 'ExternalAccountCreateRequest' });
export type ExternalAccountCreateRequest = z.input<typeof ExternalAccountCreateRequest>;

/** How ownership of a self-custody wallet is proven. */
export const OwnershipChallengeMethod = z.enum(['WALLET_SIGNATURE', 'LIVENESS']).meta({ id: 'OwnershipChallengeMethod' });
export type OwnershipChallengeMethod = z.infer<typeof OwnershipChallengeMethod>;

/** `POST .../external-accounts/{id}/challenge` body. */
export const OwnershipChallengeRequest = z.object({ method: OwnershipChallengeMethod }).meta({ id: 'OwnershipChallengeRequest' });
export type OwnershipChallengeRequest = z.input<typeof OwnershipChallengeRequest>;

/** 201 of the challenge: a message to sign, or a hosted liveness link that completes asynchronously. */
export const OwnershipChallenge = z
  .discriminatedUnion('method', [
    z.object({ method: z.literal('WALLET_SIGNATURE'), messageToSign: z.string(), expiresAt: Timestamp }),
    z.object({ method: z.literal('LIVENESS'), verificationLink: z.string(), token: z.string().optional(), expiresAt: Timestamp }),
  ])
  .meta({ id: 'OwnershipChallenge' });
export type OwnershipChallenge = z.infer<typeof OwnershipChallenge>;

/** A wallet signature is 132 hex characters (EVM) or 88 of base58 or base64 (Solana, Bitcoin): far fewer than this. */
const SIGNATURE_MAX_LENGTH = 1024;

/**
 * `POST .../external-accounts/{id}/verify` body: a signature over the exact `messageToSign` (EIP-191 hex
 * for EVM chains, base64 for Bitcoin, base58 Ed25519 for Solana). `signatureScheme` is Bitcoin only, `bip137` by default.
 */
export const OwnershipVerifyRequest = z
  .object({ signature: text(SIGNATURE_MAX_LENGTH), signatureScheme: z.enum(['bip137', 'electrum']).optional() })
  .meta({ id: 'OwnershipVerifyRequest' });
export type OwnershipVerifyRequest = z.input<typeof OwnershipVerifyRequest>;

// ---------------------------------------------------------------------------------------------------------------------
// Endpoints (REFERENCE §2.3)

/** `GET /customers/external-accounts` query: paged, filtered by currency and customer. */
export const ExternalAccountListQuery = PageQuery.extend({
  customerId: IdParam.optional(),
  currency: CurrencyCode.optional(),
});
export type ExternalAccountListQuery = z.input<typeof ExternalAccountListQuery>;

/** `GET /platform/external-accounts` query. */
export const PlatformExternalAccountListQuery = PageQuery.extend({ currency: CurrencyCode.optional() });
export type PlatformExternalAccountListQuery = z.input<typeof PlatformExternalAccountListQuery>;

const ExternalAccountPath = z.object({ externalAccountId: IdParam });
const externalAccountsTag = 'External accounts';

export const externalAccountEndpoints = {
  createExternalAccount: defineEndpoint({
    operationId: 'createExternalAccount', method: 'POST', path: '/customers/external-accounts', tag: externalAccountsTag,
    summary: 'Add an external bank account or wallet for a customer (or, without customerId, the platform)',
    body: ExternalAccountCreateRequest,
    response: { status: 201, description: 'The created account', schema: ExternalAccount },
    errors: [404, 409],
  }),
  listExternalAccounts: defineEndpoint({
    operationId: 'listExternalAccounts', method: 'GET', path: '/customers/external-accounts', tag: externalAccountsTag,
    summary: "List customers' external accounts", query: ExternalAccountListQuery,
    response: { status: 200, description: 'A page of external accounts', schema: pageOf(ExternalAccount) },
  }),
  getExternalAccount: defineEndpoint({
    operationId: 'getExternalAccount', method: 'GET', path: '/customers/external-accounts/{externalAccountId}', tag: externalAccountsTag,
    summary: 'Retrieve a customer external account', params: ExternalAccountPath,
    response: { status: 200, description: 'The account', schema: ExternalAccount },
    errors: [404],
  }),
  deleteExternalAccount: defineEndpoint({
    operationId: 'deleteExternalAccount', method: 'DELETE', path: '/customers/external-accounts/{externalAccountId}', tag: externalAccountsTag,
    summary: 'Delete a customer external account', params: ExternalAccountPath,
    description: 'A trusted beneficiary is 409 BENEFICIARY_TRUSTED until it is untrusted.',
    response: { status: 204, description: 'Deleted' },
    errors: [404, 409],
  }),
  createPlatformExternalAccount: defineEndpoint({
    operationId: 'createPlatformExternalAccount', method: 'POST', path: '/platform/external-accounts', tag: externalAccountsTag,
    summary: 'Add an external account on behalf of the platform', body: PlatformExternalAccountCreateRequest,
    response: { status: 201, description: 'The created account', schema: ExternalAccount },
    errors: [409],
  }),
  listPlatformExternalAccounts: defineEndpoint({
    operationId: 'listPlatformExternalAccounts', method: 'GET', path: '/platform/external-accounts', tag: externalAccountsTag,
    summary: "List the platform's external accounts", query: PlatformExternalAccountListQuery,
    response: { status: 200, description: 'A page of external accounts', schema: pageOf(ExternalAccount) },
  }),
  getPlatformExternalAccount: defineEndpoint({
    operationId: 'getPlatformExternalAccount', method: 'GET', path: '/platform/external-accounts/{externalAccountId}', tag: externalAccountsTag,
    summary: 'Retrieve a platform external account', params: ExternalAccountPath,
    response: { status: 200, description: 'The account', schema: ExternalAccount },
    errors: [404],
  }),
  deletePlatformExternalAccount: defineEndpoint({
    operationId: 'deletePlatformExternalAccount', method: 'DELETE', path: '/platform/external-accounts/{externalAccountId}', tag: externalAccountsTag,
    summary: 'Delete a platform external account', params: ExternalAccountPath,
    response: { status: 204, description: 'Deleted' },
    errors: [404],
  }),
} as const;
