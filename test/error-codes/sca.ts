import { SoftwarePasskeyAuthenticator } from '@railyard/wallet';
import type { RawCall } from '../support/raw-api.js';
import type { CodeTriggers } from './triggers.js';

// Codes of SCA factors, security events and factor resets (owner: sca).

/** A customer in an SCA region (France) with a phone on file; returns the `customerId=` query. */
async function scaCustomer(call: RawCall): Promise<string> {
  const created = await call('POST', '/customers', {
    body: {
      customerType: 'INDIVIDUAL', platformCustomerId: `sca-${crypto.randomUUID()}`, fullName: 'Marie Curie', birthDate: '1867-11-07', nationality: 'FR',
      currencies: ['EUR'], phoneNumber: '+33612345678', address: { line1: '36 Quai de Béthune', city: 'Paris', postalCode: '75004', country: 'FR' },
    },
  });
  return `customerId=${encodeURIComponent(created.json.id)}`;
}

/** What triggers each code this module owns: a function that makes the request(s) and returns the refused answer. */
export const triggers: CodeTriggers = {
  // A second passkey enrolment once one is enrolled (a real registration from the software authenticator).
  PASSKEY_ALREADY_ENROLLED: async ({ call }) => {
    const customer = await scaCustomer(call);
    const started = (await call('POST', `/sca/factors?${customer}`, { body: { type: 'PASSKEY' } })).json;
    const origin = started.allowedOrigins[0];
    const credential = await new SoftwarePasskeyAuthenticator({ origin }).startRegistration({ optionsJSON: started.options });
    await call('POST', `/sca/factors/confirm?${customer}`, { body: { type: 'PASSKEY', origin, credential } });
    return call('POST', `/sca/factors?${customer}`, { body: { type: 'PASSKEY' } });
  },
  // The 5th failed login locks for 15 minutes; one more while locked is 423.
  ACCOUNT_LOCKED: async ({ call }) => {
    const customer = await scaCustomer(call);
    for (let n = 0; n < 5; n++) await call('POST', `/sca/record-event?${customer}`, { body: { eventType: 'FAILED_LOGIN_ATTEMPT' } });
    return call('POST', `/sca/record-event?${customer}`, { body: { eventType: 'FAILED_LOGIN_ATTEMPT' } });
  },
  // The 6th factor-reset start of a customer within 24 hours.
  RATE_LIMITED: async ({ call }) => {
    const customer = await scaCustomer(call);
    for (let n = 0; n < 5; n++) await call('POST', `/sca/factors/reset?${customer}`, { body: { factor: 'TOTP' } });
    return call('POST', `/sca/factors/reset?${customer}`, { body: { factor: 'TOTP' } });
  },
};
