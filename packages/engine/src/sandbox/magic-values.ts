/**
 * The sandbox's magic values (SPEC §4.6), as data: each table is keyed by the last three characters of a value.
 * Later areas add their tables here, so every magic value lives in this one module.
 */

/** The last three characters of a value: the key of every table below. */
export const suffixOf = (value: string | undefined): string => (value ?? '').slice(-3);

/** Looks a suffix up in a table with an `other` row. */
export const lookupSuffix = <T>(table: { readonly [suffix: string]: T; readonly other: T }, value: string | undefined): T =>
  table[suffixOf(value)] ?? table.other;

/** Individual KYC, by the last three characters of `fullName`: where the customer ends up once resolved. */
export const INDIVIDUAL_KYC = {
  '001': 'PENDING',
  '002': 'REJECTED',
  '003': 'UNVERIFIED',
  other: 'APPROVED',
} as const;

/** Business KYB, by the last three characters of `businessInfo.registrationNumber`. 001/003: no automatic decision. */
export const BUSINESS_KYB = {
  '001': 'UNVERIFIED',
  '002': 'REJECTED',
  '003': 'UNVERIFIED',
  other: 'APPROVED',
} as const;
