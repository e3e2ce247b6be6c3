/**
 * Mints and burns of a stablecoin (REFERENCE §10, §17.3, §17.4): each one a StablecoinOperation moving through
 * CREATED → PENDING_FUNDING → PENDING_PROVIDER → PROCESSING → COMPLETED (or FAILED, or EXPIRED) on the engine clock.
 *
 * Money, as ledger entries (docs/stablecoins.md): the fiat backing a coin sits in `stablecoin-reserve:<coin>` (in the
 * base currency); its tokens are posted in the ledger currency `token:<coin>`, in cents of the base currency (every
 * amount is a whole number of cents), issued from `stablecoin-supply:<coin>` to their holders (`world:token:<coin>`
 * for wallets outside the service, `tokens:<internal account>` for the service's own wallets). So at any moment
 *
 *     reserve = tokens outstanding + fiat received for mints not issued yet + fiat owed for burns not paid out yet,
 *
 * and the property test checks it. Tokens held by a wallet of the service are kept in positions beside the ledger, so a
 * burn can check them without reading every entry.
 *
 * Money leaves an embedded wallet only by its signature: a burn whose source is one is a signed action of the wallet
 * (the signed retry, auth/signed-retry.ts), and its fiat goes to a bank account of the wallet's owner. A mint never takes
 * fiat from an embedded wallet (docs/stablecoins.md, "Who may burn, and where the fiat goes").
 */
import type { FieldError, InternalAccount, Page, Stablecoin, StablecoinOperation } from '@railyard/contract';
import { MAX_AMOUNT, StablecoinBurnRequest, StablecoinRedemptionRail, StablecoinMintRequest, StablecoinOperationListQuery } from '@railyard/contract';
import { z } from 'zod';
import { findInternalAccount, postToAccounts } from '../accounts/internal-accounts.js';
import { sessionsOf } from '../auth/sessions.js';
import { signedAction, type SignedLegAnswer, type SignedRequest } from '../auth/signed-retry.js';
import type { TenantContext } from '../core/context.js';
import { ApiError, conflict, invalidField, notFound } from '../core/errors.js';
import { definedOnly, listPage } from '../core/pagination.js';
import { onField } from '../core/store.js';
import { findExternalAccount, primaryIdentifier } from '../external-accounts/external-accounts.js';
import { ledgerAccount, outsideWorld, postedTotals, type LedgerEntry } from '../ledger/ledger.js';
import { settingsOf } from '../platforms/config.js';
import { lookupSuffix, STABLECOIN_TIMINGS, TRANSFER_OUTCOMES } from '../sandbox/magic-values.js';
import { checkUsable, findProviderAccount, findStablecoin } from './stablecoins.js';

export const STABLECOIN_OPERATIONS = 'stablecoinOperations';
export const STABLECOIN_LEDGER_STATE = 'stablecoinOperationState';
export const STABLECOIN_POSITIONS = 'stablecoinPositions';
/** Clock-job kinds: an operation's next step, and the end of its funding window. */
export const STABLECOIN_STEP_JOB = 'stablecoins.step';
export const STABLECOIN_EXPIRY_JOB = 'stablecoins.expire';

const operations = (tenant: TenantContext) => tenant.store.collection<StablecoinOperation>(STABLECOIN_OPERATIONS, {
  indexes: { stablecoinId: onField('stablecoinId'), operationType: onField('operationType') },
  createdAt: (o) => Date.parse(o.createdAt),
});

/** The service's side of an operation: its amount in cents, the fiat it holds now, and where its tokens went or came from. */
export const StablecoinOperationState = z.object({
  id: z.string(),
  cents: z.number().int().min(1),
  /** Fiat received for a mint not issued yet, or owed for a burn whose tokens are taken and not paid out yet. */
  fiatHeld: z.number().int().min(0),
  /** The token holder a burn took its tokens from (given them back if the payout fails), or a mint issues to. */
  tokenHolder: z.string().optional(),
});
export type StablecoinOperationState = z.infer<typeof StablecoinOperationState>;
const states = (tenant: TenantContext) => tenant.store.collection<StablecoinOperationState>(STABLECOIN_LEDGER_STATE);

/**
 * Tokens of a coin held by one holder, in cents: `world` (wallets outside the service) or an internal account id; and
 * what is reserved for it (tokens of mints under way to it, tokens a burn under way took and may give back), so that a
 * holder never comes to hold more than the service can count.
 */
export const StablecoinPosition = z.object({
  id: z.string(), stablecoinId: z.string(), holder: z.string(), cents: z.number().int().min(0).max(MAX_AMOUNT),
  reserved: z.number().int().min(0).max(MAX_AMOUNT),
});
export type StablecoinPosition = z.infer<typeof StablecoinPosition>;
const positions = (tenant: TenantContext) => tenant.store.collection<StablecoinPosition>(STABLECOIN_POSITIONS, { indexes: { stablecoinId: onField('stablecoinId') } });

const WORLD = 'world';
const tokenCurrency = (coin: Stablecoin) => `token:${coin.id}`;
const reserveAccount = (coin: Stablecoin) => ledgerAccount('stablecoin-reserve', coin.id);
const supplyAccount = (coin: Stablecoin) => ledgerAccount('stablecoin-supply', coin.id);
/** The ledger account of a token holder. */
const holderAccount = (coin: Stablecoin, holder: string) => (holder === WORLD ? outsideWorld(tokenCurrency(coin)) : `tokens:${holder}`);

const positionRecord = (tenant: TenantContext, coin: Stablecoin, holder: string): StablecoinPosition =>
  positions(tenant).get(`${coin.id}|${holder}`) ?? { id: `${coin.id}|${holder}`, stablecoinId: coin.id, holder, cents: 0, reserved: 0 };
const positionOf = (tenant: TenantContext, coin: Stablecoin, holder: string) => positionRecord(tenant, coin, holder).cents;

/** Changes a holder's tokens and reservation by the amounts given (in cents). */
function adjustPosition(tenant: TenantContext, coin: Stablecoin, holder: string, change: { cents?: number; reserved?: number }): void {
  const current = positionRecord(tenant, coin, holder);
  const record = { ...current, cents: current.cents + (change.cents ?? 0), reserved: current.reserved + (change.reserved ?? 0) };
  if (positions(tenant).has(record.id)) positions(tenant).replace(record);
  else positions(tenant).insert(record);
}

/** Moves tokens (in cents): issued from the supply to a holder, or taken back from one. */
function moveTokens(tenant: TenantContext, coin: Stablecoin, holder: string, direction: 'issue' | 'take', cents: number, reference: string): void {
  const [from, to] = direction === 'issue' ? [supplyAccount(coin), holderAccount(coin, holder)] : [holderAccount(coin, holder), supplyAccount(coin)];
  postToAccounts(tenant, 'STABLECOIN_TOKENS', tokenCurrency(coin), [{ account: from, amount: -cents }, { account: to, amount: cents }], reference);
  adjustPosition(tenant, coin, holder, { cents: direction === 'issue' ? cents : -cents });
}

/** Moves fiat (in cents of the base currency) into or out of the coin's reserve. */
function moveFiat(tenant: TenantContext, coin: Stablecoin, from: string, to: string, cents: number, reference: string): void {
  postToAccounts(tenant, 'STABLECOIN_FIAT', coin.baseCurrency, [{ account: from, amount: -cents }, { account: to, amount: cents }], reference);
}

// ---------------------------------------------------------------------------------------------------------------------
// Checks shared by mints and burns

/** 503 while the sandbox provider is down (`PUT /_sandbox/stablecoin-provider`). */
function requireProvider(tenant: TenantContext): void {
  if (settingsOf(tenant).stablecoinProviderDown === true) {
    throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The stablecoin provider is unavailable: try again later');
  }
}

/** The coin, PROVISIONED and ENABLED, with a usable provider link. */
function operableCoin(tenant: TenantContext, stablecoinId: string): Stablecoin {
  const coin = findStablecoin(tenant, stablecoinId);
  checkUsable(findProviderAccount(tenant, coin.stablecoinProviderAccountId));
  if (coin.issuanceStatus !== 'PROVISIONED') throw conflict(`Stablecoin ${stablecoinId} is ${coin.issuanceStatus}, not PROVISIONED`);
  if (coin.serviceOperationsStatus !== 'ENABLED') {
    throw conflict(`Stablecoin ${stablecoinId} is ${coin.serviceOperationsStatus}: mints and burns need it ENABLED (POST /stablecoins/{id}/enablement, then the operator)`);
  }
  return coin;
}

/** A token amount in cents of the base currency: 400 unless it is a positive whole number of cents within range. */
function centsOf(coin: Stablecoin, amount: string): number {
  const units = BigInt(amount);
  const perCent = 10n ** BigInt(Math.max(0, coin.decimals - 2));
  if (units === 0n) throw invalidField('amount', 'must be greater than 0');
  if (units % perCent !== 0n) throw invalidField('amount', `must be a whole number of cents: a multiple of ${perCent} at ${coin.decimals} decimals`);
  // A token with fewer than 2 decimals counts more than one cent per unit.
  const cents = (units / perCent) * 10n ** BigInt(Math.max(0, 2 - coin.decimals));
  if (cents > BigInt(MAX_AMOUNT)) throw invalidField('amount', `is more than the ${MAX_AMOUNT} cents the service handles`);
  return Number(cents);
}

/** A bank account of the platform or its customers in the coin's base currency, able to take or give money. */
function bankAccount(tenant: TenantContext, coin: Stablecoin, id: string, field: string) {
  const account = findExternalAccount(tenant, id);
  if (account.currency !== coin.baseCurrency || account.accountInfo.accountType.endsWith('_WALLET')) {
    throw invalidField(field, `must be a ${coin.baseCurrency} bank account, not a ${account.currency} ${account.accountInfo.accountType}`);
  }
  if (account.status !== 'ACTIVE') throw invalidField(field, `${id} is ${account.status}, not ACTIVE`);
  return account;
}

/**
 * An internal account of the service in the coin's base currency holding `cents` (409 INSUFFICIENT_BALANCE otherwise).
 * Never an embedded wallet: its money leaves only by its own signature, and a mint is the platform's request. (Wallets
 * hold USDB and coins are backed by USD, so the currency would refuse one too; this says why whatever the currencies.)
 */
function fundingAccount(tenant: TenantContext, coin: Stablecoin, id: string, cents: number) {
  const account = findInternalAccount(tenant, id);
  if (account.type === 'EMBEDDED_WALLET') {
    throw invalidField('fundingSource.accountId', `${id} is an embedded wallet: its money leaves only by the wallet's own signature, so a mint is funded from a ${coin.baseCurrency} account of the platform or a customer, a bank debit, a wire or the provider`);
  }
  if (account.balance.currency.code !== coin.baseCurrency) throw invalidField('fundingSource.accountId', `must hold ${coin.baseCurrency}, not ${account.balance.currency.code}`);
  if (account.status !== 'ACTIVE') throw invalidField('fundingSource.accountId', `${id} is ${account.status}, not ACTIVE`);
  if (account.balance.amount < cents) {
    throw conflict(`Internal account ${id} holds ${account.balance.amount}, less than the ${cents} this mint needs`, 'CONFLICT', { reason: 'INSUFFICIENT_BALANCE', balance: account.balance.amount, required: cents });
  }
  return account;
}

/** A wallet of the service that can hold Spark tokens: an embedded wallet. */
function tokenWallet(tenant: TenantContext, id: string, field: string) {
  const account = findInternalAccount(tenant, id);
  if (account.type !== 'EMBEDDED_WALLET') throw invalidField(field, `${id} is an ${account.type} account; Spark tokens are held by an embedded wallet`);
  if (account.status !== 'ACTIVE') throw invalidField(field, `${id} is ${account.status}, not ACTIVE`);
  return account;
}

/** 400 AMOUNT_OUT_OF_RANGE when `cents` more would take a holder past the largest amount the service counts. */
function checkRoom(tenant: TenantContext, coin: Stablecoin, holder: string, cents: number): void {
  const { cents: held, reserved } = positionRecord(tenant, coin, holder);
  if (held + reserved + cents > MAX_AMOUNT) {
    throw new ApiError(400, 'AMOUNT_OUT_OF_RANGE', `Minting ${cents} cents more of ${coin.symbol} would take ${holder === WORLD ? 'the tokens outside the service' : holder} above ${MAX_AMOUNT} cents`, {
      errors: [{ field: 'amount', message: `is more than the ${MAX_AMOUNT - held - reserved} cents the destination can still take` }],
    });
  }
}

/** A bank account an operation under way still uses: undefined once it is deleted or no longer ACTIVE. */
function bankStillUsable(tenant: TenantContext, id: string) {
  try {
    const account = findExternalAccount(tenant, id);
    return account.status === 'ACTIVE' ? account : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// Mints

/** `POST /stablecoins/{id}/mints`: 201 CREATED; the next status follows right after. */
export function createMint(tenant: TenantContext, stablecoinId: string, request: z.output<typeof StablecoinMintRequest>): StablecoinOperation {
  requireProvider(tenant);
  const coin = operableCoin(tenant, stablecoinId);
  const cents = centsOf(coin, request.amount);
  const destination = request.destination.accountId;
  let holder = WORLD;
  if (destination.startsWith('InternalAccount:')) holder = tokenWallet(tenant, destination, 'destination.accountId').id;
  else {
    const wallet = findExternalAccount(tenant, destination);
    if (wallet.accountInfo.accountType !== 'SPARK_WALLET' || wallet.status !== 'ACTIVE') {
      throw invalidField('destination.accountId', `must be an ACTIVE SPARK_WALLET external account, not ${wallet.status} ${wallet.accountInfo.accountType}`);
    }
  }
  const source = request.fundingSource;
  if (source.type === 'ACH_DEBIT' || source.type === 'SAME_DAY_ACH_DEBIT') bankAccount(tenant, coin, source.externalAccountId, 'fundingSource.externalAccountId');
  if (source.type === 'SERVICE_INTERNAL_ACCOUNT') fundingAccount(tenant, coin, source.accountId, cents);
  checkRoom(tenant, coin, holder, cents);

  const operation = newOperation(tenant, coin, 'MINT', request.amount, request.description, {
    source: { ...source },
    destination: { accountId: destination },
    ...(source.type === 'WIRE'
      ? { fundingInstructions: wireInstructions(tenant, coin), expiresAt: new Date(tenant.clock.now() + STABLECOIN_TIMINGS.fundingWindowMs).toISOString() }
      : {}),
  });
  states(tenant).insert({ id: operation.id, cents, fiatHeld: 0, tokenHolder: holder });
  adjustPosition(tenant, coin, holder, { reserved: cents });
  // An internal account pays at once, through the ledger.
  if (source.type === 'SERVICE_INTERNAL_ACCOUNT') receiveFiat(tenant, coin, operation.id, source.accountId);
  tenant.afterResponse(() => begin(tenant, operation.id));
  return operation;
}

/** Where to wire the money of a mint: the provider's bank account, quoting the operation. */
function wireInstructions(tenant: TenantContext, coin: Stablecoin): NonNullable<StablecoinOperation['fundingInstructions']> {
  const digits = coin.id.replace(/[^0-9]/g, '').padEnd(12, '0');
  return {
    rail: 'WIRE', accountNumber: digits.slice(0, 12), routingNumber: '021000021', bankName: 'Railyard Sandbox Bank',
    accountHolderName: `${coin.provider} FBO ${tenant.platform.name}`, reference: `MINT-${digits.slice(-8)}`,
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Burns

/** What a burn will do once allowed: its coin, amount in cents, token holder, and the wallet it takes tokens from. */
interface BurnPlan {
  readonly coin: Stablecoin;
  readonly cents: number;
  readonly holder: string;
  /** The embedded wallet a SERVICE_INTERNAL_ACCOUNT source names: the burn is its signed action. */
  readonly wallet?: InternalAccount;
}

/**
 * Where a burn's fiat may go: a bank account of whoever holds the tokens. A wallet's tokens pay out to its owner only:
 * an ACTIVE bank account of the same customer (a platform wallet: of the platform) in the coin's base currency.
 * Tokens from outside the service (`EXTERNAL_ACCOUNT`) or held by the provider for the platform
 * (`PROVIDER_INTERNAL_BALANCE`) are the platform's to redeem: to its own bank accounts or its customers'.
 */
function payoutAccount(tenant: TenantContext, coin: Stablecoin, id: string, wallet: BurnPlan['wallet']) {
  const field = 'destination.externalAccountId';
  const bank = bankAccount(tenant, coin, id, field);
  if (wallet === undefined) return bank;
  const owner = wallet.customerId ?? null;
  if ((bank.customerId ?? null) !== owner) {
    const holder = owner === null ? 'the platform' : `customer ${owner}`;
    const belongs = bank.customerId == null ? 'the platform' : `customer ${bank.customerId}`;
    throw invalidField(field, `must be a bank account of ${holder}, who holds ${wallet.id}: a wallet's tokens are redeemed to its owner's own bank account, and ${id} belongs to ${belongs}`);
  }
  return bank;
}

/** Every check of a burn, before it is signed and again when it runs: 400, 404, 409 and 503 as docs/stablecoins.md. */
function planBurn(tenant: TenantContext, stablecoinId: string, request: z.output<typeof StablecoinBurnRequest>): BurnPlan {
  requireProvider(tenant);
  const coin = operableCoin(tenant, stablecoinId);
  const cents = centsOf(coin, request.amount);
  const source = request.source;
  const wallet = source.type === 'SERVICE_INTERNAL_ACCOUNT' ? tokenWallet(tenant, source.accountId, 'source.accountId') : undefined;
  payoutAccount(tenant, coin, request.destination.externalAccountId, wallet);
  const holder = wallet?.id ?? WORLD;
  if (source.type !== 'EXTERNAL_ACCOUNT' && positionOf(tenant, coin, holder) < cents) {
    const where = holder === WORLD ? 'the provider holds' : `${holder} holds`;
    throw conflict(`${where} ${positionOf(tenant, coin, holder)} cents of ${coin.symbol}, less than the ${cents} to burn`, 'CONFLICT', {
      reason: 'INSUFFICIENT_BALANCE', balance: positionOf(tenant, coin, holder), required: cents,
    });
  }
  return { coin, cents, holder, ...(wallet ? { wallet } : {}) };
}

/**
 * `POST /stablecoins/{id}/burns`: 201 CREATED; tokens of the service's wallets are taken at once. A burn from an
 * embedded wallet (`SERVICE_INTERNAL_ACCOUNT`) is the wallet's signed action: the first leg answers the challenge
 * (the API's 202) and changes nothing; the signed retry, stamped by an active session of that wallet, runs it. The
 * signature headers of a burn from another source are not looked at.
 */
export async function createBurn(
  tenant: TenantContext, stablecoinId: string, request: z.output<typeof StablecoinBurnRequest>, signed: SignedRequest,
): Promise<StablecoinOperation | SignedLegAnswer> {
  const plan = planBurn(tenant, stablecoinId, request);
  if (plan.wallet === undefined) return startBurn(tenant, request, plan);
  const { destination } = request;
  const leg = await signedAction(tenant, signed, {
    accountId: plan.wallet.id, activity: 'ACTIVITY_TYPE_SIGN_TRANSACTION',
    parameters: {
      operation: 'STABLECOIN_BURN', stablecoinId: plan.coin.id, accountId: plan.wallet.id, amount: request.amount,
      destination: destination.externalAccountId, rail: destination.rail,
    },
    signers: sessionsOf(tenant, plan.wallet.id),
  });
  if (!('signer' in leg)) return leg;
  // Checked again: the wallet's tokens, the coin or the bank account may have changed while the stamp was verified.
  return startBurn(tenant, request, planBurn(tenant, stablecoinId, request));
}

/** Creates the burn a plan allows: its operation, and the tokens of a service wallet or the provider taken now. */
function startBurn(tenant: TenantContext, request: z.output<typeof StablecoinBurnRequest>, plan: BurnPlan): StablecoinOperation {
  const { coin, cents, holder } = plan;
  const source = request.source;
  const { rail } = request.destination;
  const operation = newOperation(tenant, coin, 'BURN', request.amount, request.description, {
    source: { ...source },
    destination: { accountId: request.destination.externalAccountId, rail },
    estimatedDelivery: { rail, amount: String(cents), currency: coin.baseCurrency, timing: PAYOUT_TIMING[rail] },
    ...(source.type === 'EXTERNAL_ACCOUNT'
      ? {
        fundingInstructions: { network: coin.network, address: depositAddress(coin), valueType: coin.providerTokenIdentifier },
        expiresAt: new Date(tenant.clock.now() + STABLECOIN_TIMINGS.fundingWindowMs).toISOString(),
      }
      : {}),
  });
  states(tenant).insert({ id: operation.id, cents, fiatHeld: 0, tokenHolder: holder });
  if (source.type !== 'EXTERNAL_ACCOUNT') takeTokens(tenant, coin, operation.id, holder);
  tenant.afterResponse(() => begin(tenant, operation.id));
  return operation;
}

const PAYOUT_TIMING: Readonly<Record<z.infer<typeof StablecoinRedemptionRail>, string>> = {
  WIRE: 'within an hour', ACH_CREDIT: 'next business day', SAME_DAY_ACH_CREDIT: 'within an hour', RTP_CREDIT: 'within a minute',
};

/** The provider's Spark deposit address for the coin's tokens. */
const depositAddress = (coin: Stablecoin) => `sp1q${coin.id.replace(/[^0-9a-f]/g, '').slice(0, 40)}`;

// ---------------------------------------------------------------------------------------------------------------------
// The steps

function newOperation(
  tenant: TenantContext, coin: Stablecoin, operationType: 'MINT' | 'BURN', amount: string, description: string | undefined,
  fields: Partial<StablecoinOperation>,
): StablecoinOperation {
  const now = tenant.nowIso();
  const operation: StablecoinOperation = {
    id: tenant.ids('StablecoinOperation'), stablecoinId: coin.id, operationType, status: 'CREATED', amount, provider: coin.provider,
    providerEnvironment: coin.providerEnvironment, stablecoinProviderAccountId: coin.stablecoinProviderAccountId,
    ...fields, providerStatus: 'created', failureReason: undefined, ...(description === undefined ? {} : { description }), createdAt: now, updatedAt: now,
  };
  return operations(tenant).insert(operation);
}

/** Fiat for a mint arrives in the reserve: from an internal account, or from outside (a wire, a debit, the provider). */
function receiveFiat(tenant: TenantContext, coin: Stablecoin, operationId: string, from = outsideWorld(coin.baseCurrency)): void {
  const state = states(tenant).get(operationId)!;
  moveFiat(tenant, coin, from, reserveAccount(coin), state.cents, operationId);
  states(tenant).replace({ ...state, fiatHeld: state.cents });
}

/** A burn's tokens go back into the supply (reserved for their holder until the payout arrives); their fiat is now owed. */
function takeTokens(tenant: TenantContext, coin: Stablecoin, operationId: string, holder: string): void {
  const state = states(tenant).get(operationId)!;
  moveTokens(tenant, coin, holder, 'take', state.cents, operationId);
  adjustPosition(tenant, coin, holder, { reserved: state.cents });
  states(tenant).replace({ ...state, fiatHeld: state.cents, tokenHolder: holder });
}

/**
 * Ends an operation that will not complete (FAILED or EXPIRED) and undoes what it started: a mint's reservation goes,
 * and fiat it received goes back where it came from; a burn's tokens go back to their holder.
 */
function endUnfinished(tenant: TenantContext, operationId: string, status: 'FAILED' | 'EXPIRED', failureReason?: string): StablecoinOperation {
  const operation = operations(tenant).get(operationId)!;
  const state = states(tenant).get(operationId)!;
  const coin = findStablecoin(tenant, operation.stablecoinId);
  const holder = state.tokenHolder ?? WORLD;
  if (operation.operationType === 'MINT') {
    if (state.fiatHeld > 0) {
      const source = operation.source!;
      const back = source.type === 'SERVICE_INTERNAL_ACCOUNT' ? source.accountId! : outsideWorld(coin.baseCurrency);
      moveFiat(tenant, coin, reserveAccount(coin), back, state.fiatHeld, operationId);
    }
    adjustPosition(tenant, coin, holder, { reserved: -state.cents });
  } else if (state.fiatHeld > 0) {
    moveTokens(tenant, coin, holder, 'issue', state.cents, operationId);
    adjustPosition(tenant, coin, holder, { reserved: -state.cents });
  }
  states(tenant).replace({ ...state, fiatHeld: 0 });
  tenant.cancelJob(`stablecoin-expiry/${operationId}`);
  return move(tenant, operationId, status, failureReason === undefined ? {} : { failureReason });
}

/** A wire mint or an external-wallet burn past its `expiresAt` with nothing arrived is EXPIRED, whenever it is read. */
function expiredIfDue(tenant: TenantContext, operation: StablecoinOperation): StablecoinOperation {
  if (operation.status !== 'PENDING_FUNDING' || operation.expiresAt === undefined || tenant.clock.now() < Date.parse(operation.expiresAt)) return operation;
  return endUnfinished(tenant, operation.id, 'EXPIRED');
}

function move(tenant: TenantContext, operationId: string, status: StablecoinOperation['status'], changes: Partial<StablecoinOperation> = {}): StablecoinOperation {
  const current = operations(tenant).get(operationId)!;
  const providerStatus = { PENDING_FUNDING: 'awaiting_funds', PENDING_PROVIDER: 'pending', PROCESSING: 'processing', COMPLETED: 'complete', FAILED: 'failed', EXPIRED: 'expired', CREATED: 'created' }[status];
  const updated: StablecoinOperation = { ...current, ...changes, status, providerStatus, updatedAt: tenant.nowIso() };
  operations(tenant).replace(updated);
  return updated;
}

const step = (tenant: TenantContext, operationId: string, afterMs: number) => tenant.schedule(afterMs, STABLECOIN_STEP_JOB, { operationId });

/** Right after the create: external funding waits (with its deadline); everything else goes to the provider. */
function begin(tenant: TenantContext, operationId: string): void {
  const operation = operations(tenant).get(operationId)!;
  const type = operation.source!.type;
  if (type === 'WIRE' || (operation.operationType === 'BURN' && type === 'EXTERNAL_ACCOUNT')) {
    move(tenant, operationId, 'PENDING_FUNDING');
    tenant.schedule(STABLECOIN_TIMINGS.fundingWindowMs, STABLECOIN_EXPIRY_JOB, { operationId }, `stablecoin-expiry/${operationId}`);
    return;
  }
  move(tenant, operationId, 'PENDING_PROVIDER');
  step(tenant, operationId, type === 'ACH_DEBIT' || type === 'SAME_DAY_ACH_DEBIT' ? STABLECOIN_TIMINGS.debitMs[type] : STABLECOIN_TIMINGS.providerMs);
}

/**
 * `POST /_sandbox/stablecoin-operations/{id}/fund`: what a wire mint or an external-wallet burn waits for arrives. Another
 * amount than the operation's fails it (and nothing is kept).
 */
export function fundOperation(tenant: TenantContext, operationId: string, amount: string | undefined): StablecoinOperation {
  const operation = findOperation(tenant, operationId);
  if (operation.status !== 'PENDING_FUNDING') throw conflict(`Operation ${operationId} is ${operation.status}: it waits for no funds`);
  const coin = findStablecoin(tenant, operation.stablecoinId);
  if (amount !== undefined && BigInt(amount) !== BigInt(operation.amount)) return endUnfinished(tenant, operationId, 'FAILED', 'FUNDING_AMOUNT_MISMATCH');
  const state = states(tenant).get(operationId)!;
  if (operation.operationType === 'BURN' && positionOf(tenant, coin, WORLD) < state.cents) {
    throw conflict(`Only ${positionOf(tenant, coin, WORLD)} cents of ${coin.symbol} are held outside the service: ${state.cents} cannot arrive`);
  }
  tenant.cancelJob(`stablecoin-expiry/${operationId}`);
  if (operation.operationType === 'MINT') receiveFiat(tenant, coin, operationId);
  else takeTokens(tenant, coin, operationId, WORLD);
  step(tenant, operationId, STABLECOIN_TIMINGS.providerMs);
  return move(tenant, operationId, 'PENDING_PROVIDER');
}

/** Whether a bank transfer with the account succeeds: it is still there and ACTIVE, and its number is no failure suffix (SPEC §4.6). */
const transferSucceeds = (tenant: TenantContext, bankAccountId: string): boolean => {
  const bank = bankStillUsable(tenant, bankAccountId);
  return bank !== undefined && lookupSuffix(TRANSFER_OUTCOMES, primaryIdentifier(bank.accountInfo as never)).settle !== 'FAIL';
};

/** The step job: the operation's next status. */
export const stepJob = (tenant: TenantContext, payload: unknown): void => {
  const { operationId } = payload as { operationId: string };
  const operation = operations(tenant).get(operationId);
  if (!operation) return;
  const coin = findStablecoin(tenant, operation.stablecoinId);
  if (operation.status === 'PENDING_PROVIDER') {
    const type = operation.source!.type;
    if (operation.operationType === 'MINT' && (type === 'ACH_DEBIT' || type === 'SAME_DAY_ACH_DEBIT')) {
      // The provider's debit of the bank account settles, or fails (the account is gone, or its number says so).
      if (!transferSucceeds(tenant, operation.source!.externalAccountId!)) {
        endUnfinished(tenant, operationId, 'FAILED', 'PROVIDER_TRANSFER_FAILED');
        return;
      }
      receiveFiat(tenant, coin, operationId);
    } else if (operation.operationType === 'MINT' && type === 'PROVIDER_INTERNAL_BALANCE') receiveFiat(tenant, coin, operationId);
    move(tenant, operationId, 'PROCESSING');
    const rail = operation.destination?.rail;
    step(tenant, operationId, operation.operationType === 'MINT' ? STABLECOIN_TIMINGS.mintingMs : STABLECOIN_TIMINGS.payoutMs[rail!]);
    return;
  }
  if (operation.status !== 'PROCESSING') return;
  const state = states(tenant).get(operationId)!;
  const holder = state.tokenHolder ?? WORLD;
  if (operation.operationType === 'MINT') {
    moveTokens(tenant, coin, holder, 'issue', state.cents, operationId);
    adjustPosition(tenant, coin, holder, { reserved: -state.cents });
  } else {
    // A burn's payout: it reaches the bank account, or the bank refuses it and the tokens go back where they came from.
    if (!transferSucceeds(tenant, operation.destination!.accountId)) {
      endUnfinished(tenant, operationId, 'FAILED', 'PROVIDER_TRANSFER_FAILED');
      return;
    }
    moveFiat(tenant, coin, reserveAccount(coin), outsideWorld(coin.baseCurrency), state.cents, operationId);
    adjustPosition(tenant, coin, holder, { reserved: -state.cents });
  }
  states(tenant).replace({ ...state, fiatHeld: 0 });
  move(tenant, operationId, 'COMPLETED');
};

/** The funding window of a wire mint or an external-wallet burn ends: EXPIRED if nothing arrived. */
export const expiryJob = (tenant: TenantContext, payload: unknown): void => {
  const operation = operations(tenant).get((payload as { operationId: string }).operationId);
  if (operation?.status === 'PENDING_FUNDING') endUnfinished(tenant, operation.id, 'EXPIRED');
};

// ---------------------------------------------------------------------------------------------------------------------
// Reading

/** An operation by id, or 404. */
export function findOperation(tenant: TenantContext, operationId: string): StablecoinOperation {
  const found = operations(tenant).get(operationId);
  if (!found) throw notFound('Stablecoin operation', operationId);
  return expiredIfDue(tenant, found);
}

/** `GET /stablecoins/{id}/operations`: newest first. */
export function listOperations(tenant: TenantContext, stablecoinId: string, query: z.output<typeof StablecoinOperationListQuery>): Page<StablecoinOperation> {
  findStablecoin(tenant, stablecoinId);
  const page = listPage(operations(tenant), query, { where: definedOnly({ stablecoinId, operationType: query.operationType }) });
  return { ...page, data: page.data.map((operation) => expiredIfDue(tenant, operation)) };
}

/** The tokens of a coin the service's wallet `accountId` holds, in cents (docs; the money property test). */
export const tokensHeldBy = (tenant: TenantContext, stablecoinId: string, holder: string): number =>
  positionOf(tenant, findStablecoin(tenant, stablecoinId), holder);

// ---------------------------------------------------------------------------------------------------------------------
// Restore

/**
 * What a snapshot's stablecoin records must agree on before it is restored (the ledger is the truth): each operation
 * has its state, in cents its amount converts to; each holder's tokens are what the ledger posted to it; each coin's
 * reserve backs its tokens outstanding and the fiat its operations hold.
 */
export function stablecoinStateErrors(collections: ReadonlyMap<string, unknown[]>): FieldError[] {
  const errors: FieldError[] = [];
  const coins = new Map(((collections.get('stablecoins') ?? []) as Stablecoin[]).map((coin) => [coin.id, coin]));
  const stateById = new Map(((collections.get(STABLECOIN_LEDGER_STATE) ?? []) as StablecoinOperationState[]).map((state) => [state.id, state]));
  const posted = postedTotals((collections.get('ledger') ?? []) as LedgerEntry[]);
  const postedTo = (account: string, currency: string) => posted.get(`${account} ${currency}`) ?? 0;
  const fiatHeld = new Map<string, number>();
  ((collections.get(STABLECOIN_OPERATIONS) ?? []) as StablecoinOperation[]).forEach((operation, index) => {
    const field = `collections.${STABLECOIN_OPERATIONS}.${index}`;
    const coin = coins.get(operation.stablecoinId);
    const state = stateById.get(operation.id);
    if (!coin) errors.push({ field: `${field}.stablecoinId`, message: `names ${operation.stablecoinId}, which the snapshot does not have` });
    else if (!state) errors.push({ field: `${field}.id`, message: `has no record in ${STABLECOIN_LEDGER_STATE}` });
    else {
      const units = BigInt(operation.amount);
      const expected = coin.decimals >= 2 ? units / 10n ** BigInt(coin.decimals - 2) : units * 10n ** BigInt(2 - coin.decimals);
      if (BigInt(state.cents) !== expected) errors.push({ field: `${field}.amount`, message: `converts to ${expected} cents, but its state says ${state.cents}` });
      fiatHeld.set(coin.id, (fiatHeld.get(coin.id) ?? 0) + state.fiatHeld);
    }
  });
  const outstanding = new Map<string, number>();
  ((collections.get(STABLECOIN_POSITIONS) ?? []) as StablecoinPosition[]).forEach((position, index) => {
    const coin = coins.get(position.stablecoinId);
    if (!coin) {
      errors.push({ field: `collections.${STABLECOIN_POSITIONS}.${index}.stablecoinId`, message: `names ${position.stablecoinId}, which the snapshot does not have` });
      return;
    }
    const ledger = postedTo(holderAccount(coin, position.holder), tokenCurrency(coin));
    if (position.cents !== ledger) {
      errors.push({ field: `collections.${STABLECOIN_POSITIONS}.${index}.cents`, message: `is ${position.cents}, but the ledger's postings to ${position.holder} add up to ${ledger}` });
    }
    outstanding.set(coin.id, (outstanding.get(coin.id) ?? 0) + position.cents);
  });
  [...coins.values()].forEach((coin) => {
    const tokens = outstanding.get(coin.id) ?? 0;
    const supply = -postedTo(supplyAccount(coin), tokenCurrency(coin));
    const reserve = postedTo(reserveAccount(coin), coin.baseCurrency);
    if (supply !== tokens) errors.push({ field: `collections.stablecoins`, message: `${coin.id}: ${supply} cents issued in the ledger, but its holders hold ${tokens}` });
    if (reserve !== tokens + (fiatHeld.get(coin.id) ?? 0)) {
      errors.push({ field: `collections.stablecoins`, message: `${coin.id}: the reserve holds ${reserve} cents, not the ${tokens} outstanding plus the ${fiatHeld.get(coin.id) ?? 0} its operations hold` });
    }
  });
  return errors;
}
