/**
 * @railyard/contract: the zod schemas shared by the Railyard engine, client and wallet.
 * Types are inferred from the schemas; the OpenAPI document is generated from the same endpoint definitions.
 * @packageDocumentation
 */
export * from './common.js';
export * from './countries.js';
export * from './tax-ids.js';
export * from './errors.js';
export * from './endpoint.js';
export * from './pagination.js';
export * from './customers.js';
export * from './onboarding-links.js';
export * from './control-plane.js';
export * from './event-stream.js';
export * from './dashboard.js';
export * from './accounts.js';
export * from './endpoints.js';
export * from './openapi.js';
export * from './external-accounts.js';
export * from './ownership.js';
export * from './onboarding.js';
export * from './transport.js';
export * from './auth.js';
export * from './sca.js';
export * from './quotes.js';
export * from './transactions.js';
export * from './webhooks.js';
export * from './config.js';
export * from './onboarding-endpoints.js';
export * from './account-checks.js';
export * from './payment-endpoints.js';
export * from './uma.js';
export * from './cards.js';
export * from './stablecoins.js';
export * from './tokens.js';
export * from './access.js';
export * from './lookups.js';
export * from './invitations.js';
export * from './delegated-keys.js';
export * from './bulk-import.js';
export * from './agents.js';
export * from './wallet-crypto/index.js';
export * from './unknown-fields.js';
export * from './schema-def.js';
