import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  APPLICANT_SCREENING, BENEFICIARY_VERIFICATION_TRIGGERS, BUSINESS_KYB, CROSS_CURRENCY_DESTINATION_OUTCOMES, DOCUMENT_REJECTION_TRIGGERS,
  DOCUMENT_VERIFICATION_TRIGGERS, INDIVIDUAL_KYC, SANDBOX_UMA_DOMAINS, TRANSFER_OUTCOMES, SANDBOX_RECEIVER_HANDLES, WALLET_OTP_CODE, SCA_CODE,
  LEGACY_OIDC_TOKEN, LEGACY_PASSKEY_SIGNATURE, LEGACY_WALLET_SIGNATURE, CARD_ISSUANCE, FUNDING_SOURCE_TRIGGERS, CARD_MERCHANT_TRIGGERS,
  RESERVED_ID_ENDINGS, STABLECOIN_ISSUANCE, STABLECOIN_LINK_TRIGGERS, OTP_SYNC_FAILURE_MARKER, SERVER_ERROR_TRIGGERS,
} from './magic-values.js';

// docs/sandbox.md promises every trigger in one table: a trigger added here without a row there fails this test.
const page = readFileSync(new URL('../../../../docs/sandbox.md', import.meta.url), 'utf8');
const suffixes = (table: Record<string, unknown>) => Object.keys(table).filter((key) => key !== 'other');

describe('docs/sandbox.md', () => {
  it('names every magic value of magic-values.ts', () => {
    const values = [
      ...suffixes(INDIVIDUAL_KYC), ...suffixes(BUSINESS_KYB), ...suffixes(TRANSFER_OUTCOMES), ...suffixes(CROSS_CURRENCY_DESTINATION_OUTCOMES),
      ...suffixes(BENEFICIARY_VERIFICATION_TRIGGERS), ...Object.keys(DOCUMENT_REJECTION_TRIGGERS), ...Object.keys(DOCUMENT_VERIFICATION_TRIGGERS),
      ...SANDBOX_RECEIVER_HANDLES.map((handle) => `$${handle}.<cur>`), ...SANDBOX_UMA_DOMAINS,
      WALLET_OTP_CODE, SCA_CODE, LEGACY_OIDC_TOKEN, LEGACY_PASSKEY_SIGNATURE, LEGACY_WALLET_SIGNATURE, OTP_SYNC_FAILURE_MARKER,
      ...Object.keys(SERVER_ERROR_TRIGGERS),
    ];
    const missing = values.filter((value) => !page.includes(value));
    expect(missing).toEqual([]);
    // Screening identifiers: the first in its SSN form, the others as `…0902`; each beside the outcome it triggers.
    const [first, ...others] = Object.entries(APPLICANT_SCREENING);
    expect(page).toContain(`\`${first![0].replace(/^(\d{3})(\d{2})(\d{4})$/, '$1-$2-$3')}\``);
    for (const [digits] of others) expect(page).toContain(`\`…${digits.slice(-4)}\``);
    const outcomes = Object.values(APPLICANT_SCREENING).join(', ');
    expect(page).toContain(outcomes);
  });

  it('has a row for each card trigger, naming the field it is read from', () => {
    const rows = page.split('\n').filter((line) => line.startsWith('|'));
    const rowFor = (field: string, suffix: string) => rows.some((row) => row.includes(field) && row.includes(`\`${suffix}\``));
    const missing = [
      ...suffixes(CARD_ISSUANCE).filter((suffix) => !rowFor('`platformCardId`', suffix)).map((s) => `platformCardId ${s}`),
      ...Object.keys(FUNDING_SOURCE_TRIGGERS).filter((suffix) => !rowFor('`fundingSources`', suffix)).map((s) => `fundingSources ${s}`),
      ...suffixes(CARD_MERCHANT_TRIGGERS).filter((suffix) => !rowFor('`merchant.descriptor`', suffix)).map((s) => `merchant.descriptor ${s}`),
    ];
    expect(missing).toEqual([]);
    // The endings generated ids never have are listed.
    for (const ending of Object.values(RESERVED_ID_ENDINGS).flatMap((set) => [...set!])) expect(page).toContain(`\`${ending}\``);
  });

  it('has a row for each stablecoin trigger, naming the field it is read from', () => {
    const rows = page.split('\n').filter((line) => line.startsWith('|'));
    const rowFor = (field: string, suffix: string) => rows.some((row) => row.includes(field) && row.includes(`\`${suffix}\``));
    const missing = [
      ...Object.keys(STABLECOIN_LINK_TRIGGERS).filter((suffix) => !rowFor('`apiClientId`', suffix)).map((s) => `apiClientId ${s}`),
      ...suffixes(STABLECOIN_ISSUANCE).filter((suffix) => !rowFor('`providerTokenIdentifier`', suffix)).map((s) => `providerTokenIdentifier ${s}`),
    ];
    expect(missing).toEqual([]);
  });
});
