import { describe, expect, it } from 'vitest';
import { fundingInstructionsFor } from './funding-instructions.js';

describe('funding instructions of a new internal account', () => {
  it("derive the bank details from the random part of the account id, digit by digit (hex letters modulo 10), padded with zeros", () => {
    // The type's name does not count: its e a c c would start every account's digits with 4022.
    const [usd] = fundingInstructionsFor('USD', 'InternalAccount:12345678-9abc-4def-8000-000000000001', 'Acme');
    expect(usd!.accountOrWalletInfo).toEqual({
      accountType: 'USD_ACCOUNT', paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'], accountNumber: '123456789012', routingNumber: '021000021',
      bankName: 'Railyard Sandbox Bank', bankAccountType: 'CHECKING', reference: 'RY1234567890', accountHolderName: 'Railyard Sandbox FBO Acme',
    });
    const [gbp] = fundingInstructionsFor('GBP', 'X:9', 'Other');
    expect(gbp!.accountOrWalletInfo).toMatchObject({ accountNumber: '90000000', reference: 'RY9000000000', accountHolderName: 'Railyard Sandbox FBO Other' });
    const [eur] = fundingInstructionsFor('EUR', 'InternalAccount:ffffffff-ffff-4fff-8fff-ffffffffffff', 'Acme');
    expect(eur!.accountOrWalletInfo).toMatchObject({ iban: 'DE89370400440555555555' });
    expect(fundingInstructionsFor('XYZ', 'X:1', 'Acme')).toEqual([]);
    // An 8-digit account number is 8 digits of the id's random part, none fixed.
    const [zeros] = fundingInstructionsFor('GBP', 'InternalAccount:00000000-0000-4000-8000-000000000000', 'Acme');
    expect(zeros!.accountOrWalletInfo).toMatchObject({ accountNumber: '00000000' });
  });
});
