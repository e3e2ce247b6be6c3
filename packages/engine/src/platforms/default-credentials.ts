/** Credentials of the default platform when none are configured (documented in the README). */
export const DEFAULT_CREDENTIALS = { clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' } as const;
