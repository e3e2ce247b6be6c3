import { privateKeyToAccount } from 'viem/accounts';
import { beforeEach, describe, expect, it } from 'vitest';
import { TenantContext } from '../core/context.js';
import { VirtualClock } from '../core/clock.js';
import { ApiError, notFound } from '../core/errors.js';
import { randomIds } from '../core/ids.js';
import { Scheduler } from '../core/scheduler.js';
import { createMemoryStore } from '../core/store.js';
import { createEngine } from '../engine.js';
import { CHALLENGE_TTL_MS, LIVENESS_DELAY_MS, LIVENESS_JOB, type OwnedAccount } from './challenges.js';
import { createOwnershipChallenge, livenessJob, verifyOwnership, type AccountPort } from './ownership.js';

// The ownership service over a real tenant context (store, virtual clock, scheduler), with an in-memory account port
// standing in for the external-accounts area; signatures from viem.

const signer = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const stranger = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');

let tenant: TenantContext;
let scheduler: Scheduler;
let accounts: Map<string, OwnedAccount>;
let statusEvents: { id: string; status: string }[];
const port: AccountPort = {
  find: (_t, id) => {
    const found = accounts.get(id);
    if (!found) throw notFound('ExternalAccount', id);
    return found;
  },
  setStatus: (_t, id, status) => {
    const account = { ...accounts.get(id)!, status };
    if (accounts.get(id)!.status !== status) statusEvents.push({ id, status });
    accounts.set(id, account);
    return account;
  },
};

beforeEach(() => {
  const clock = new VirtualClock(new Date('2026-01-01T00:00:00Z'));
  scheduler = new Scheduler(clock);
  const store = createMemoryStore();
  const platform = createEngine().defaultPlatform;
  tenant = new TenantContext(platform, store.tenant(platform.id), clock, randomIds, scheduler);
  scheduler.register(LIVENESS_JOB, (job) => livenessJob(port)(tenant, job.payload));
  accounts = new Map([
    ['ExternalAccount:a', { id: 'ExternalAccount:a', status: 'PENDING_OWNERSHIP_VERIFICATION', ownershipType: 'FIRST_PARTY', accountInfo: { accountType: 'ETHEREUM_WALLET', address: signer.address } }],
    ['ExternalAccount:active', { id: 'ExternalAccount:active', status: 'ACTIVE', ownershipType: 'FIRST_PARTY', accountInfo: { accountType: 'ETHEREUM_WALLET', address: signer.address } }],
  ]);
  statusEvents = [];
});

const statusOf = async (fn: () => unknown): Promise<number> => {
  try {
    await fn();
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
  return 200;
};

describe('ownership service', () => {
  it('valid signature → ACTIVE with one status change; the challenge is consumed (a second verify is 409)', async () => {
    const challenge = createOwnershipChallenge(tenant, port, 'ExternalAccount:a', 'WALLET_SIGNATURE');
    if (challenge.method !== 'WALLET_SIGNATURE') throw new Error('expected a wallet challenge');
    const signature = await signer.signMessage({ message: challenge.messageToSign });
    expect((await verifyOwnership(tenant, port, 'ExternalAccount:a', { signature })).status).toBe('ACTIVE');
    expect(statusEvents).toEqual([{ id: 'ExternalAccount:a', status: 'ACTIVE' }]);
    expect(await statusOf(() => verifyOwnership(tenant, port, 'ExternalAccount:a', { signature }))).toBe(409);
  });

  it('invalid → 400 and UNVERIFIED; then a new challenge and a valid signature → ACTIVE', async () => {
    const first = createOwnershipChallenge(tenant, port, 'ExternalAccount:a', 'WALLET_SIGNATURE');
    if (first.method !== 'WALLET_SIGNATURE') throw new Error('expected a wallet challenge');
    const bad = await stranger.signMessage({ message: first.messageToSign });
    expect(await statusOf(() => verifyOwnership(tenant, port, 'ExternalAccount:a', { signature: bad }))).toBe(400);
    expect(accounts.get('ExternalAccount:a')!.status).toBe('UNVERIFIED');
    expect(await statusOf(() => verifyOwnership(tenant, port, 'ExternalAccount:a', { signature: bad }))).toBe(409);
    const second = createOwnershipChallenge(tenant, port, 'ExternalAccount:a', 'WALLET_SIGNATURE');
    if (second.method !== 'WALLET_SIGNATURE') throw new Error('expected a wallet challenge');
    const good = await signer.signMessage({ message: second.messageToSign });
    expect((await verifyOwnership(tenant, port, 'ExternalAccount:a', { signature: good })).status).toBe('ACTIVE');
    expect(statusEvents.map((e) => e.status)).toEqual(['UNVERIFIED', 'ACTIVE']);
  });

  it('expired → 400 and UNVERIFIED', async () => {
    const challenge = createOwnershipChallenge(tenant, port, 'ExternalAccount:a', 'WALLET_SIGNATURE');
    if (challenge.method !== 'WALLET_SIGNATURE') throw new Error('expected a wallet challenge');
    const signature = await signer.signMessage({ message: challenge.messageToSign });
    scheduler.advance(CHALLENGE_TTL_MS);
    expect(await statusOf(() => verifyOwnership(tenant, port, 'ExternalAccount:a', { signature }))).toBe(400);
    expect(accounts.get('ExternalAccount:a')!.status).toBe('UNVERIFIED');
  });

  it('a newer challenge supersedes the older one', async () => {
    const older = createOwnershipChallenge(tenant, port, 'ExternalAccount:a', 'WALLET_SIGNATURE');
    createOwnershipChallenge(tenant, port, 'ExternalAccount:a', 'WALLET_SIGNATURE');
    if (older.method !== 'WALLET_SIGNATURE') throw new Error('expected a wallet challenge');
    const signature = await signer.signMessage({ message: older.messageToSign });
    expect(await statusOf(() => verifyOwnership(tenant, port, 'ExternalAccount:a', { signature }))).toBe(400);
  });

  it('409 for accounts that cannot be challenged, 404 for unknown accounts, 409 without a challenge', async () => {
    expect(await statusOf(() => createOwnershipChallenge(tenant, port, 'ExternalAccount:active', 'WALLET_SIGNATURE'))).toBe(409);
    expect(await statusOf(() => createOwnershipChallenge(tenant, port, 'ExternalAccount:nope', 'LIVENESS'))).toBe(404);
    expect(await statusOf(() => verifyOwnership(tenant, port, 'ExternalAccount:nope', { signature: '0x00' }))).toBe(404);
    expect(await statusOf(() => verifyOwnership(tenant, port, 'ExternalAccount:a', { signature: '0x00' }))).toBe(409);
  });

  it('LIVENESS completes through the clock and moves the account to ACTIVE; verify never uses it', async () => {
    const challenge = createOwnershipChallenge(tenant, port, 'ExternalAccount:a', 'LIVENESS');
    expect(challenge.method).toBe('LIVENESS');
    expect(await statusOf(() => verifyOwnership(tenant, port, 'ExternalAccount:a', { signature: '0x00' }))).toBe(409);
    scheduler.advance(LIVENESS_DELAY_MS - 1);
    expect(accounts.get('ExternalAccount:a')!.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    scheduler.advance(1);
    expect(accounts.get('ExternalAccount:a')!.status).toBe('ACTIVE');
    expect(statusEvents).toEqual([{ id: 'ExternalAccount:a', status: 'ACTIVE' }]);
  });
});
