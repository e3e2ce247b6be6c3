import { z } from 'zod';
import { IdParam, Timestamp, cappedString, resourceId } from './common.js';
import { defineEndpoint } from './endpoint.js';
import { signedLegs } from './signed-retry.js';

// Delegated keys: a signing key the service holds for one embedded wallet funding one card. Once ACTIVE it approves
// the card's pulls from the wallet in place of a session key, so the cardholder need not be present at each purchase.
// It is created by a three-leg signed retry, read and listed, and revoked without a signature.

export const DelegatedKeyId = resourceId('DelegatedKey').meta({ id: 'DelegatedKeyId' });
/** The binding of one internal account to one card: stable for that pair, shown only on delegated keys. */
export const CardFundingSourceId = resourceId('CardFundingSource').meta({ id: 'CardFundingSourceId' });

/**
 * `PENDING`: the second leg passed but the third never came; the key can neither sign nor be revoked. `ACTIVE`: it
 * approves the card's pulls from the wallet. `REVOKED`: its signer is deleted; it approves nothing, ever.
 */
export const DelegatedKeyStatus = z.enum(['PENDING', 'ACTIVE', 'REVOKED']).meta({ id: 'DelegatedKeyStatus' });
export type DelegatedKeyStatus = z.infer<typeof DelegatedKeyStatus>;

/** A delegated key as every endpoint returns it; its private half never leaves the service. */
export const DelegatedKey = z
  .object({
    id: DelegatedKeyId,
    cardId: z.string(),
    fundingSourceId: CardFundingSourceId,
    /** The embedded wallet, taken from the funding source. */
    accountId: z.string(),
    /** The key's public half, compressed P-256 hex: informational. */
    publicKey: z.string(),
    nickname: z.string(),
    status: DelegatedKeyStatus,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'DelegatedKey' });
export type DelegatedKey = z.infer<typeof DelegatedKey>;

/** The body of every leg of `POST /auth/delegated-keys`: identical each time. */
export const DelegatedKeyCreateRequest = z
  .object({
    cardId: IdParam,
    /** The embedded wallet: one of the card's funding sources. */
    internalAccountId: IdParam,
    nickname: cappedString(256).min(1),
  })
  .meta({ id: 'DelegatedKeyCreateRequest' });
export type DelegatedKeyCreateRequest = z.input<typeof DelegatedKeyCreateRequest>;

/** `GET /auth/delegated-keys`: by wallet, by funding source, or both (at least one). */
export const DelegatedKeyListQuery = z.object({ accountId: IdParam.optional(), fundingSourceId: IdParam.optional() });
export type DelegatedKeyListQuery = z.input<typeof DelegatedKeyListQuery>;

const tag = 'Embedded wallet authentication';
const keyParams = z.object({ delegatedKeyId: IdParam });

export const delegatedKeyEndpoints = {
  createDelegatedKey: defineEndpoint({
    operationId: 'createDelegatedKey', method: 'POST', path: '/auth/delegated-keys', tag, body: DelegatedKeyCreateRequest,
    summary: 'Create a delegated key: a service-held key that approves one card\'s pulls from an embedded wallet',
    description:
      'Three legs with the identical body. First, without signature headers: the service makes the key pair and answers 202 ' +
      '(payloadToSign, requestId, expiresAt). Second, that payload stamped by an active session of the wallet, in ' +
      '`Service-Wallet-Signature` with `Request-Id`: the key is PENDING and a new 202 comes. Third, the new payload stamped ' +
      'and its `Request-Id`: 201 with the ACTIVE key. 404 for an unknown card, an account that is not an embedded wallet, or one ' +
      'that does not fund the card; 409 while the funding source has an ACTIVE key; signatures are refused as on every signed retry (401).',
    alsoResponds: signedLegs,
    response: { status: 201, description: 'The ACTIVE key', schema: DelegatedKey },
    errors: [401, 404, 409],
  }),
  listDelegatedKeys: defineEndpoint({
    operationId: 'listDelegatedKeys', method: 'GET', path: '/auth/delegated-keys', tag, query: DelegatedKeyListQuery,
    summary: 'Delegated keys of a wallet or a funding source, every status (not paged)',
    description: 'At least one of `accountId` and `fundingSourceId` (both: keys matching both); neither is 400.',
    response: { status: 200, description: 'The keys', schema: z.object({ data: z.array(DelegatedKey) }) },
  }),
  getDelegatedKeyById: defineEndpoint({
    operationId: 'getDelegatedKeyById', method: 'GET', path: '/auth/delegated-keys/{delegatedKeyId}', tag, params: keyParams,
    summary: 'Retrieve a delegated key',
    response: { status: 200, description: 'The key', schema: DelegatedKey }, errors: [404],
  }),
  revokeDelegatedKey: defineEndpoint({
    operationId: 'revokeDelegatedKey', method: 'DELETE', path: '/auth/delegated-keys/{delegatedKeyId}', tag, params: keyParams,
    summary: 'Revoke an ACTIVE delegated key: it approves nothing from now on (no signature needed)',
    description: 'A key that is not ACTIVE (PENDING or already REVOKED): 400.',
    response: { status: 204, description: 'Revoked' }, errors: [404],
  }),
} as const;
