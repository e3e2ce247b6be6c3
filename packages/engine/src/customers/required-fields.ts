import type { CustomerInfoFieldName, CustomerType } from '@railyard/contract';

/**
 * Where each provider-required customer field (REFERENCE §10 CustomerInfoFieldName) lives on a customer, per customer
 * type. A currency's `providerRequiredCustomerFields` make these paths required on create and update (SPEC §2.6).
 * Names with no customer-level home (counterparty and payment data) are absent: they are asked for on payments.
 */
export const CUSTOMER_FIELD_PATHS: Partial<Record<CustomerInfoFieldName, Record<CustomerType, string>>> = {
  FULL_NAME: { INDIVIDUAL: 'fullName', BUSINESS: 'businessInfo.legalName' },
  COMPANY_LEGAL_NAME: { INDIVIDUAL: 'fullName', BUSINESS: 'businessInfo.legalName' },
  BIRTH_DATE: { INDIVIDUAL: 'birthDate', BUSINESS: 'businessInfo.incorporatedOn' },
  NATIONALITY: { INDIVIDUAL: 'nationality', BUSINESS: 'businessInfo.country' },
  PHONE_NUMBER: { INDIVIDUAL: 'phoneNumber', BUSINESS: 'phoneNumber' },
  EMAIL: { INDIVIDUAL: 'email', BUSINESS: 'email' },
  POSTAL_ADDRESS: { INDIVIDUAL: 'address', BUSINESS: 'address' },
  COUNTRY_OF_RESIDENCE: { INDIVIDUAL: 'address.country', BUSINESS: 'address.country' },
  TAX_ID: { INDIVIDUAL: 'identifier', BUSINESS: 'businessInfo.taxId' },
  IDENTIFIER: { INDIVIDUAL: 'identifier', BUSINESS: 'businessInfo.taxId' },
  ID_NUMBER: { INDIVIDUAL: 'identifier', BUSINESS: 'businessInfo.taxId' },
  ID_TYPE: { INDIVIDUAL: 'idType', BUSINESS: 'businessInfo.taxId' },
  REGISTRATION_NUMBER: { INDIVIDUAL: 'identifier', BUSINESS: 'businessInfo.registrationNumber' },
  BUSINESS_TYPE: { INDIVIDUAL: 'customerType', BUSINESS: 'businessInfo.businessType' },
  USER_TYPE: { INDIVIDUAL: 'customerType', BUSINESS: 'customerType' },
};

/** Reads a dot path of a plain object. */
export const valueAt = (record: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), record);
