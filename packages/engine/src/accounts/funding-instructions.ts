import type { PaymentInstructions } from '@railyard/contract';
import { stringOfCodes } from '../core/char-codes.js';

/**
 * Digits derived from an id, so an account's sandbox bank details are stable across snapshots: each hex digit of the
 * id, in order, modulo 10. (A character loop: every new account computes several of these.)
 */
const digitsOf = (id: string, count: number): string => {
  let written = 0;
  for (let i = 0; i < id.length && written < count; i++) {
    const code = id.charCodeAt(i);
    if (code >= 48 && code <= 57) digitCodes[written++] = code; // 0-9
    else if (code >= 97 && code <= 102) digitCodes[written++] = code - 97 + 48; // a-f: 10-15, modulo 10
  }
  while (written < count) digitCodes[written++] = 48;
  return stringOfCodes(digitCodes, count);
};
/** The digits being written, reused (see {@link stringOfCodes}). */
const digitCodes: number[] = [];

/**
 * The rails of the sandbox's receiving bank accounts: one list each, shared by every account's instructions. Frozen,
 * as every stored record is (typed as the contract's arrays, which stored records never change either).
 */
const sharedRails = <T extends string>(...rails: T[]): T[] => Object.freeze(rails) as T[];
const RAILS = {
  USD: sharedRails('ACH', 'WIRE', 'RTP', 'FEDNOW'),
  EUR: sharedRails('SEPA', 'SEPA_INSTANT'),
  GBP: sharedRails('FASTER_PAYMENTS'),
  MXN: sharedRails('SPEI'),
};

/**
 * How to pay into an internal account, per currency: the sandbox's own receiving details. Bank accounts name their
 * holder: the sandbox's account held for the benefit of the platform (SPEC §2.8 `accountHolderName`).
 */
const BY_CURRENCY: Record<string, (accountId: string, reference: string, holder: string) => PaymentInstructions['accountOrWalletInfo']> = {
  USD: (id, reference, accountHolderName) => ({
    accountType: 'USD_ACCOUNT', paymentRails: RAILS.USD, accountNumber: digitsOf(id, 12),
    routingNumber: '021000021', bankName: 'Railyard Sandbox Bank', bankAccountType: 'CHECKING', reference, accountHolderName,
  }),
  EUR: (id, reference, accountHolderName) => ({
    accountType: 'EUR_ACCOUNT', paymentRails: RAILS.EUR, iban: `DE89370400440${digitsOf(id, 9)}`,
    swiftCode: 'RAILDEFFXXX', reference, accountHolderName,
  }),
  GBP: (id, reference, accountHolderName) => ({
    accountType: 'GBP_ACCOUNT', paymentRails: RAILS.GBP, sortCode: '040004', accountNumber: digitsOf(id, 8), reference, accountHolderName,
  }),
  MXN: (id, reference, accountHolderName) => ({ accountType: 'MXN_ACCOUNT', paymentRails: RAILS.MXN, clabeNumber: `646180${digitsOf(id, 12)}`, reference, accountHolderName }),
  BRL: (id) => ({ accountType: 'BRL_ACCOUNT', qrCode: `00020126580014br.gov.bcb.pix0136${digitsOf(id, 32)}` }),
  USDC: (id) => ({ accountType: 'SOLANA_WALLET', address: solanaLikeAddress(id), assetType: 'USDC' }),
  BTC: (id) => ({ accountType: 'BITCOIN_L1', address: `bc1q${id.replace(/[^0-9a-f]/g, '').slice(0, 38)}`, network: 'BITCOIN' }),
  USDB: (id) => ({ accountType: 'SPARK_WALLET', address: `sp1q${id.replace(/[^0-9a-f]/g, '').slice(0, 40)}`, assetType: 'USDB' }),
};

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function solanaLikeAddress(id: string): string {
  const hex = id.replace(/[^0-9a-f]/g, '');
  let out = '';
  for (let i = 0; out.length < 44; i++) out += BASE58[parseInt(hex[i % hex.length]! + hex[(i * 7 + 3) % hex.length]!, 16) % 58];
  return out;
}

/** The name on the sandbox's receiving bank accounts of a platform: held for its benefit. */
export const accountHolderNameOf = (platformName: string): string => `Railyard Sandbox FBO ${platformName}`;

/** The funding instructions of a new internal account of the platform named `platformName`. */
export function fundingInstructionsFor(currency: string, accountId: string, platformName: string): PaymentInstructions[] {
  const make = BY_CURRENCY[currency];
  if (!make) return [];
  // From the random part of the id only: its type's name (`InternalAccount`, whose e, a, c, c read as 4022) would
  // make the first digits of every account's details the same, and an 8-digit number mostly fixed.
  const random = accountId.slice(accountId.indexOf(':') + 1);
  const reference = `RY${digitsOf(random, 10)}`;
  return [{ accountOrWalletInfo: make(random, reference, accountHolderNameOf(platformName)), instructionsNotes: `Sandbox: use POST /sandbox/internal-accounts/{id}/fund to credit this account instantly` }];
}

/** Networks on which the sandbox takes real-time crypto funding, by currency (REFERENCE §2.2 wallet variants). */
export const FUNDING_NETWORKS: Readonly<Record<string, readonly string[]>> = {
  USDC: ['SOLANA', 'BASE', 'ETHEREUM', 'POLYGON'],
  USDT: ['SOLANA', 'ETHEREUM', 'TRON', 'PLASMA'],
  BTC: ['BITCOIN', 'LIGHTNING'],
};

const hexOf = (id: string) => id.replace(/[^0-9a-f]/g, '');

/** The wallet a real-time crypto payment for `id` is sent to, on `network`. */
function walletFor(currency: string, network: string, id: string): PaymentInstructions['accountOrWalletInfo'] {
  if (network === 'BITCOIN') return { accountType: 'BITCOIN_L1', address: `bc1q${hexOf(id).slice(0, 38)}`, network: 'BITCOIN' };
  if (network === 'LIGHTNING') return { accountType: 'LIGHTNING', invoice: `lnbcrt1sandbox${hexOf(id)}` };
  const assetType = currency as 'USDC';
  if (network === 'SOLANA') return { accountType: 'SOLANA_WALLET', address: solanaLikeAddress(id), assetType };
  if (network === 'TRON') return { accountType: 'TRON_WALLET', address: `T${solanaLikeAddress(id).slice(0, 33)}`, assetType: 'USDT' };
  return { accountType: `${network}_WALLET` as 'BASE_WALLET', address: `0x${hexOf(id).padEnd(40, '0').slice(0, 40)}`, assetType };
}

/**
 * Where the payer of a real-time funding quote sends the money: a bank account of the sandbox quoting the quote's own
 * reference, or a wallet on the chosen network. `network` is required for crypto currencies (checked by the caller).
 */
export function realtimeFundingInstructions(currency: string, network: string | undefined, quoteId: string, platformName: string): PaymentInstructions[] {
  if (FUNDING_NETWORKS[currency]) {
    return [{ accountOrWalletInfo: walletFor(currency, network!, quoteId), instructionsNotes: 'Sandbox: pay with POST /sandbox/send' }];
  }
  return fundingInstructionsFor(currency, quoteId, platformName).map((i) => ({ ...i, instructionsNotes: 'Quote the reference exactly. Sandbox: pay with POST /sandbox/send' }));
}
