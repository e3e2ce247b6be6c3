import { describe, expect, it } from 'vitest';
import { setup } from '../test-support.js';
import { ExternalAccounts, PlatformExternalAccounts } from './external-accounts.js';
import { ExternalAccountOwnership } from './ownership.js';

const MESSAGE = 'Railyard wallet ownership verification\nAddress: 0xabc\nNonce: 1f\nExpires: 2025-10-13T00:10:00.000Z';
const ACCOUNT = { id: 'ExternalAccount:1', status: 'ACTIVE', currency: 'USDC', accountInfo: { accountType: 'BASE_WALLET', address: '0xabc' } };

describe('external-account ownership (client)', () => {
  it('proveOwnership starts a challenge, signs the exact message and submits the signature', async () => {
    const { client, requests } = setup((req) =>
      req.path.endsWith('/challenge')
        ? { status: 201, body: { method: 'WALLET_SIGNATURE', messageToSign: MESSAGE, expiresAt: '2025-10-13T00:10:00.000Z' } }
        : { body: ACCOUNT },
    );
    const ownership = new ExternalAccountOwnership(client);
    const signed: string[] = [];
    const account = await ownership.proveOwnership('ExternalAccount:1', async (message) => {
      signed.push(message);
      return '0xsig';
    });
    expect(account.status).toBe('ACTIVE');
    expect(signed).toEqual([MESSAGE]);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /2025-10-13/customers/external-accounts/ExternalAccount%3A1/challenge',
      'POST /2025-10-13/customers/external-accounts/ExternalAccount%3A1/verify',
    ]);
    expect(requests.map((r) => r.body)).toEqual([{ method: 'WALLET_SIGNATURE' }, { signature: '0xsig' }]);
  });

  it('uses the platform paths and passes the Bitcoin signature scheme', async () => {
    const { client, requests } = setup((req) =>
      req.path.endsWith('/challenge')
        ? { status: 201, body: { method: 'WALLET_SIGNATURE', messageToSign: MESSAGE, expiresAt: '2025-10-13T00:10:00.000Z' } }
        : { body: ACCOUNT },
    );
    const ownership = new ExternalAccountOwnership(client);
    await ownership.proveOwnership('ExternalAccount:1', async () => 'H+sig==', { scope: 'platform', signatureScheme: 'electrum' });
    expect(requests.map((r) => r.path)).toEqual([
      '/2025-10-13/platform/external-accounts/ExternalAccount%3A1/challenge',
      '/2025-10-13/platform/external-accounts/ExternalAccount%3A1/verify',
    ]);
    expect(requests[1]!.body).toEqual({ signature: 'H+sig==', signatureScheme: 'electrum' });
  });

  it('client.platformExternalAccounts uses the platform paths unless a call names its scope', async () => {
    const { client, requests } = setup((req) =>
      req.path.endsWith('/challenge') ? { status: 201, body: { method: 'LIVENESS', verificationLink: 'https://x.test/l', expiresAt: '2025-10-13T00:10:00.000Z' } } : { body: ACCOUNT },
    );
    const platformAccounts = new PlatformExternalAccounts(client);
    await platformAccounts.challenge('ExternalAccount:1', { method: 'LIVENESS' });
    await platformAccounts.verify('ExternalAccount:1', { signature: '0xsig' });
    await platformAccounts.verify('ExternalAccount:1', { signature: '0xsig' }, { scope: 'customer' });
    await new ExternalAccounts(client).verify('ExternalAccount:1', { signature: '0xsig' });
    expect(requests.map((r) => r.path)).toEqual([
      '/2025-10-13/platform/external-accounts/ExternalAccount%3A1/challenge',
      '/2025-10-13/platform/external-accounts/ExternalAccount%3A1/verify',
      '/2025-10-13/customers/external-accounts/ExternalAccount%3A1/verify',
      '/2025-10-13/customers/external-accounts/ExternalAccount%3A1/verify',
    ]);
  });
});
