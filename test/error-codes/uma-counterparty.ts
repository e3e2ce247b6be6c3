import type { RawAnswer, RawCall } from '../support/raw-api.js';
import type { CodeTriggers } from './triggers.js';

// UMA counterparty failures: each sandbox receiver handle of the sandbox UMA domain fails at its step (docs/payments.md,
// "UMA counterparty failures"). The platform pays, funded in real time, so no customer or balance is needed: its
// lookups name the UMA address it pays from, as a lookup needs a customer or a sender address.

const DOMAIN = 'uma.sandbox.railyard.dev';
const addressOf = (handle: string) => `$${handle}.usd@${DOMAIN}`;
const SENDER = encodeURIComponent('$platform@payer.example');
const lookup = (call: RawCall, address: string) => call('GET', `/receiver/uma/${encodeURIComponent(address)}?senderUmaAddress=${SENDER}`);
/** A platform-paid quote to `address` with `lookupId`. */
const quote = (call: RawCall, address: string, lookupId: string, extra: Record<string, unknown> = {}) => call('POST', '/quotes', {
  body: {
    source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: address },
    lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000, ...extra,
  },
});

/** The receiver lookup of a handle that fails there. */
const failsAtLookup = (handle: string) => async ({ call }: { call: RawCall }): Promise<RawAnswer> => lookup(call, addressOf(handle));

/** A quote (with a successful lookup) to a handle that fails at the quote. */
const failsAtQuote = (handle: string) => async ({ call }: { call: RawCall }): Promise<RawAnswer> => {
  const address = addressOf(handle);
  const found = await lookup(call, address);
  if (found.status !== 200) return found;
  return quote(call, address, found.json.lookupId);
};

/** What triggers each code this module owns: a function that makes the request(s) and returns the refused answer. */
export const triggers: CodeTriggers = {
  // Lookup step (the quote naming these addresses answers the same).
  LNURLP_REQUEST_FAILED: failsAtLookup('fail.lnurlp'),
  PARSE_LNURLP_RESPONSE_ERROR: failsAtLookup('fail.lnurlp.parse'),
  LOOKUP_REQUEST_FAILED: failsAtLookup('fail.lookup'),
  MISSING_REQUIRED_UMA_PARAMETERS: failsAtLookup('fail.uma.params'),
  NO_COMPATIBLE_UMA_VERSION: failsAtLookup('fail.version.none'),
  COUNTERPARTY_PUBKEY_FETCH_ERROR: failsAtLookup('fail.pubkey.fetch'),
  INVALID_PUBKEY_FORMAT: failsAtLookup('fail.pubkey.format'),
  CERT_CHAIN_INVALID: failsAtLookup('fail.cert.invalid'),
  CERT_CHAIN_EXPIRED: failsAtLookup('fail.cert.expired'),
  INVALID_TIMESTAMP: failsAtLookup('fail.timestamp'),
  INVALID_NONCE: failsAtLookup('fail.nonce'),
  // 412 at the quote: a quote naming the handle directly (its lookup could not succeed, so any lookupId).
  UNSUPPORTED_UMA_VERSION: async ({ call }) => quote(call, addressOf('fail.version.unsupported'), 'Lookup:00000000-0000-4000-8000-000000000000'),
  // Quote step.
  PAYREQ_REQUEST_FAILED: failsAtQuote('fail.payreq'),
  PARSE_PAYREQ_RESPONSE_ERROR: failsAtQuote('fail.payreq.parse'),
  INVALID_PAYREQ_RESPONSE: failsAtQuote('fail.payreq.invalid'),
  INVALID_RECEIVER: failsAtQuote('fail.receiver'),
  SENDER_NOT_ACCEPTED: failsAtQuote('fail.sender'),
  COUNTERPARTY_NOT_ALLOWED: failsAtQuote('fail.not.allowed'),
  VELOCITY_LIMIT_EXCEEDED: failsAtQuote('fail.velocity'),
  UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY: failsAtQuote('fail.payee.data'),
  // Retryable: the first quote of each lookup fails.
  QUOTE_REQUEST_FAILED: failsAtQuote('fail.quote.once'),
  // The receiver requires BIRTH_DATE; the paying platform has no customer record and gives no senderCustomerInfo.
  MISSING_MANDATORY_USER_INFO: failsAtQuote('payer.data'),
};
