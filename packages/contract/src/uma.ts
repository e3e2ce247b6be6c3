import { z } from 'zod';
import { Currency, CurrencyCode, MAX_LENGTH, MinorUnits, cappedString, onEveryObject } from './common.js';
import { CustomerId, UmaAddress } from './customers.js';
import { defineEndpoint } from './endpoint.js';
import { LookupId } from './quotes.js';
import { RequiredField } from './config.js';
import { IncomingTransaction } from './transactions.js';

// UMA receivers and incoming UMA payments (SPEC §4.6; REFERENCE §9, §13, §14).

/** A currency an UMA receiver accepts, with the amounts it takes (receiving minor units). */
export const UmaReceiverCurrency = z
  .object({
    currency: Currency,
    /** Receiving units per sending unit of the sender's currency, at the sandbox mid rate. */
    estimatedExchangeRate: z.number().positive(),
    min: MinorUnits,
    max: MinorUnits,
  })
  .meta({ id: 'UmaReceiverCurrency' });

/** `GET /receiver/uma/{receiverUmaAddress}`: who the receiver is and what it accepts. Quote with its `lookupId`. */
export const UmaReceiverLookup = z
  .object({
    lookupId: LookupId,
    receiverUmaAddress: UmaAddress,
    supportedCurrencies: z.array(UmaReceiverCurrency),
    /** Payer fields the receiver asks for; a quote's `senderCustomerInfo` must cover the mandatory ones. */
    requiredPayerDataFields: z.array(RequiredField).optional(),
  })
  .meta({ id: 'UmaReceiverLookup' });
export type UmaReceiverLookup = z.infer<typeof UmaReceiverLookup>;

/**
 * Query of both receiver lookups: who pays, as the paying customer (`customerId`), the UMA address it pays from
 * (`senderUmaAddress`), or both. One of them is required (400 INVALID_INPUT naming both); the platform paying for
 * itself names an UMA address.
 */
export const UmaReceiverLookupQuery = z
  .object({
    customerId: CustomerId.optional(),
    senderUmaAddress: UmaAddress.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.customerId !== undefined || value.senderUmaAddress !== undefined) return;
    // Both fields are named, so the 400 says which ones could satisfy it (REFERENCE §9 and §23: one is required).
    for (const field of ['customerId', 'senderUmaAddress'] as const) {
      ctx.addIssue({ code: 'custom', path: [field], message: 'customerId or senderUmaAddress is required: name the paying customer, or the UMA address of the sender' });
    }
  }, onEveryObject);

/** `POST /sandbox/uma/receive`: an UMA payment arrives for a customer of the platform. */
export const SandboxUmaReceiveRequest = z
  .object({
    senderUmaAddress: UmaAddress,
    /** The receiving customer's UMA address, or give `customerId` (which wins when both are given). */
    receiverUmaAddress: UmaAddress.optional(),
    customerId: CustomerId.optional(),
    receivingCurrencyCode: CurrencyCode,
    receivingCurrencyAmount: MinorUnits.min(1),
  })
  .superRefine((value, ctx) => {
    if (typeof value !== 'object' || value === null) return;
    if (value.receiverUmaAddress === undefined && value.customerId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['receiverUmaAddress'], message: 'receiverUmaAddress or customerId is required (customerId wins when both are given)' });
    }
  }, onEveryObject)
  .meta({ id: 'SandboxUmaReceiveRequest' });
export type SandboxUmaReceiveRequest = z.input<typeof SandboxUmaReceiveRequest>;

export const umaEndpoints = {
  lookupUmaReceiver: defineEndpoint({
    operationId: 'lookupUmaReceiver', method: 'GET', path: '/receiver/uma/{receiverUmaAddress}', tag: 'Quotes',
    params: z.object({ receiverUmaAddress: cappedString(MAX_LENGTH.handle) }), query: UmaReceiverLookupQuery,
    summary: 'Look up an UMA receiver before quoting a payment to it',
    description:
      'Needs `customerId` or `senderUmaAddress` (400 INVALID_INPUT naming both). ' +
      'Malformed address: 400 INVALID_UMA_ADDRESS. No receiver at that address: 404 UMA_NOT_FOUND. The sandbox knows the ' +
      "customers of this platform (at its umaDomain) and the sandbox receivers `$success.<cur>`, `$pending.long.<cur>` and " +
      '`$fail.compliance.<cur>` at the sandbox UMA domain, and sandbox receivers that fail as a counterparty would: ' +
      '412 UNSUPPORTED_UMA_VERSION, 424 (LNURLP_REQUEST_FAILED, COUNTERPARTY_PUBKEY_FETCH_ERROR, NO_COMPATIBLE_UMA_VERSION) ' +
      'or 400 (the parsing, certificate, signature and parameter failures).',
    response: { status: 200, description: 'The receiver and the lookupId to quote with', schema: UmaReceiverLookup },
    errors: [404, 412, 424],
  }),
  sandboxUmaReceive: defineEndpoint({
    operationId: 'sandboxUmaReceive', method: 'POST', path: '/sandbox/uma/receive', tag: 'Sandbox', body: SandboxUmaReceiveRequest,
    summary: 'Receive an UMA payment for a customer, as a sender elsewhere would send it (sandbox)',
    description:
      "Credits the customer's default UMA deposit account when it has one, else its internal account in the receiving " +
      'currency. A sender paying its own address: 400 SELF_PAYMENT. Unknown receiver: 404.',
    response: { status: 200, description: 'The incoming transaction', schema: IncomingTransaction },
    errors: [404],
  }),
} as const;

