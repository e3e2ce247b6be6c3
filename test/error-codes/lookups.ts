import type { RawCall } from '../support/raw-api.js';
import type { CodeTriggers } from './triggers.js';

// The lookups' own ways to the codes they emit: a withdrawal the fees would swallow, and a quote naming a lookup that
// does not exist.

/** An internal account in USDC of a new customer (creation gives each currency of the customer an account). */
async function usdcAccount(call: RawCall): Promise<string> {
  const customer = (await call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Trigger Holder', currencies: ['USDC'] } })).json;
  return (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).json.data[0].id;
}

/** What triggers each code this module owns: a function that makes the request(s) and returns the refused answer. */
export const triggers: CodeTriggers = {
  // 750 micro-USDC is the Solana network fee at the sandbox price: nothing would arrive.
  AMOUNT_OUT_OF_RANGE: async ({ call }) => call('POST', '/crypto/estimate-withdrawal-fee', {
    body: { internalAccountId: await usdcAccount(call), currency: 'USDC', cryptoNetwork: 'SOLANA', amount: 750, destinationAddress: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' },
  }),
  // The platform pays (real-time funding, no customer to approve) a platform account, naming a lookup nobody made.
  LOOKUP_REQUEST_NOT_FOUND: async ({ call }) => {
    const account = (await call('POST', '/platform/external-accounts', {
      body: { currency: 'USD', accountInfo: {
        accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', bankName: 'JPMorgan Chase Bank, N.A.',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Trigger Payee' },
      } },
    })).json;
    return call('POST', '/quotes', {
      body: {
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' }, destination: { destinationType: 'ACCOUNT', accountId: account.id },
        lookupId: 'Lookup:00000000-0000-4000-8000-000000000000', lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
      },
    });
  },
};
