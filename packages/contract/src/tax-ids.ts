/**
 * Business tax-id formats by country of incorporation ("taxId validated against country"). A value may carry
 * the name of its scheme in front (`EIN-123456789`, `VAT: GB123456789`), as the reference's own examples do; the rest
 * must match the country's format. Countries not listed accept any identifier with a letter or digit in it.
 */
export const TAX_ID_FORMATS: Readonly<Record<string, { pattern: RegExp; name: string }>> = {
  US: { pattern: /^\d{2}-?\d{7}$/, name: 'EIN (##-####### or 9 digits, optionally written EIN-#########)' },
  GB: { pattern: /^(\d{10}|GB\d{9}|GB\d{12})$/, name: 'UTR (10 digits) or VAT number (GB + 9 or 12 digits)' },
  CA: { pattern: /^\d{9}([A-Z]{2}\d{4})?$/, name: 'Business Number (9 digits, optional program account)' },
  MX: { pattern: /^[A-ZÑ&]{3}\d{6}[A-Z0-9]{3}$/, name: 'RFC (12 characters)' },
  BR: { pattern: /^\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}$/, name: 'CNPJ (14 digits)' },
  IN: { pattern: /^[A-Z]{5}\d{4}[A-Z]$/, name: 'PAN (AAAAA9999A)' },
  DE: { pattern: /^(DE\d{9}|\d{10,11})$/, name: 'USt-IdNr (DE + 9 digits) or Steuernummer' },
  FR: { pattern: /^(FR[0-9A-Z]{2}\d{9}|\d{9}|\d{14})$/, name: 'SIREN, SIRET or VAT number' },
};

const GENERIC_TAX_ID = /[A-Za-z0-9]/;
/** A scheme label in front of the number: `EIN-`, `VAT `, `RFC: `. */
const SCHEME_LABEL = /^[A-Za-z]{2,6}(?:[-:]\s?|\s)/;

/** The pattern a business tax id (without a scheme label) must match for its country of incorporation. */
export const taxIdPatternFor = (country: string | undefined): RegExp =>
  (country !== undefined && TAX_ID_FORMATS[country]?.pattern) || GENERIC_TAX_ID;

/** True when `taxId` is valid for `country`, with or without a scheme label in front. */
export function isValidTaxId(taxId: string, country: string | undefined): boolean {
  const pattern = taxIdPatternFor(country);
  return pattern.test(taxId) || pattern.test(taxId.replace(SCHEME_LABEL, ''));
}
