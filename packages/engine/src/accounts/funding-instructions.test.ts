import { describe, expect, it } from 'vitest';
import { fundingInstructionsFor } from './funding-instructions.js';

describe('funding instructions of a new internal account', () => {
  it('derive the bank details from the account id, digit by digit (hex letters modulo 10), padded with zeros', () => {
    // Lower-case hex letters count wherever they are, the type's included: e a c c → 4 0 2 2.
    const [usd] = fundingInstructionsFor('USD', 'InternalAccount:12345678-9abc-4def-8000-000000000001', 'Acme');
    expect(usd!.accountOrWalletInfo).toEqual({
      accountType: 'USD_ACCOUNT', paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'], accountNumber: '402212345678', routingNumber: '021000021',
      bankName: 'Railyard Sandbox Bank', bankAccountType: 'CHECKING', reference: 'RY4022123456', accountHolderName: 'Railyard Sandbox FBO Acme',
    });
    const [gbp] = fundingInstructionsFor('GBP', 'X:9', 'Other');
    expect(gbp!.accountOrWalletInfo).toMatchObject({ accountNumber: '90000000', reference: 'RY9000000000', accountHolderName: 'Railyard Sandbox FBO Other' });
    const [eur] = fundingInstructionsFor('EUR', 'InternalAccount:ffffffff-ffff-4fff-8fff-ffffffffffff', 'Acme');
    expect(eur!.accountOrWalletInfo).toMatchObject({ iban: 'DE89370400440402255555' });
    expect(fundingInstructionsFor('XYZ', 'X:1', 'Acme')).toEqual([]);
  });
});
