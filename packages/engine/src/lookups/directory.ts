/**
 * The sandbox's lookup tables, as data: the bank directory of `GET /discoveries`, the VASPs of `GET /vasps`, the UMA
 * providers of `GET /uma-providers`, and the networks and fees of `POST /crypto/estimate-withdrawal-fee`. Fixed values,
 * so tests and docs can state them.
 */
import type { Discovery, Vasp } from '@railyard/contract';
import { SANDBOX_UMA_DOMAIN } from '../sandbox/magic-values.js';

const bank = (country: string, currency: string, bankName: string, displayName: string): Discovery => ({ bankName, displayName, country, currency });

/**
 * Banks by country and currency: at least two for each fiat currency a platform holds by default (USD, EUR, GBP, MXN,
 * BRL) and one or more for every other fiat currency the sandbox market pays out in. `bankName` is what external
 * accounts take as `accountInfo.bankName`.
 */
export const BANK_DIRECTORY: readonly Discovery[] = [
  bank('US', 'USD', 'JPMorgan Chase Bank, N.A.', 'Chase'),
  bank('US', 'USD', 'Bank of America, N.A.', 'Bank of America'),
  bank('US', 'USD', 'Wells Fargo Bank, N.A.', 'Wells Fargo'),
  bank('SV', 'USD', 'Banco Agrícola, S.A.', 'Banco Agrícola'),
  bank('DE', 'EUR', 'Deutsche Bank AG', 'Deutsche Bank'),
  bank('DE', 'EUR', 'Commerzbank AG', 'Commerzbank'),
  bank('FR', 'EUR', 'BNP Paribas SA', 'BNP Paribas'),
  bank('ES', 'EUR', 'Banco Santander SA', 'Santander'),
  bank('NL', 'EUR', 'ING Bank N.V.', 'ING'),
  bank('IT', 'EUR', 'Intesa Sanpaolo S.p.A.', 'Intesa Sanpaolo'),
  bank('GB', 'GBP', 'Barclays Bank UK PLC', 'Barclays'),
  bank('GB', 'GBP', 'HSBC UK Bank plc', 'HSBC UK'),
  bank('MX', 'MXN', 'BBVA México, S.A.', 'BBVA México'),
  bank('MX', 'MXN', 'Banco Nacional de México, S.A.', 'Banamex'),
  bank('BR', 'BRL', 'Itaú Unibanco S.A.', 'Itaú'),
  bank('BR', 'BRL', 'Banco do Brasil S.A.', 'Banco do Brasil'),
  bank('CA', 'CAD', 'Royal Bank of Canada', 'RBC'),
  bank('AE', 'AED', 'Emirates NBD Bank PJSC', 'Emirates NBD'),
  bank('BD', 'BDT', 'Sonali Bank PLC', 'Sonali Bank'),
  bank('BW', 'BWP', 'First National Bank of Botswana', 'FNB Botswana'),
  bank('CN', 'CNY', 'Industrial and Commercial Bank of China', 'ICBC'),
  bank('CO', 'COP', 'Bancolombia S.A.', 'Bancolombia'),
  bank('DK', 'DKK', 'Danske Bank A/S', 'Danske Bank'),
  bank('EG', 'EGP', 'National Bank of Egypt', 'NBE'),
  bank('GH', 'GHS', 'GCB Bank PLC', 'GCB Bank'),
  bank('GT', 'GTQ', 'Banco Industrial, S.A.', 'Banco Industrial'),
  bank('HK', 'HKD', 'The Hongkong and Shanghai Banking Corporation', 'HSBC Hong Kong'),
  bank('HT', 'HTG', 'Banque Nationale de Crédit', 'BNC'),
  bank('ID', 'IDR', 'PT Bank Central Asia Tbk', 'BCA'),
  bank('IL', 'ILS', 'Bank Leumi le-Israel B.M.', 'Bank Leumi'),
  bank('IN', 'INR', 'State Bank of India', 'SBI'),
  bank('IN', 'INR', 'HDFC Bank Ltd', 'HDFC Bank'),
  bank('JM', 'JMD', 'National Commercial Bank Jamaica', 'NCB'),
  bank('KE', 'KES', 'Kenya Commercial Bank', 'KCB'),
  bank('MW', 'MWK', 'National Bank of Malawi', 'National Bank of Malawi'),
  bank('MY', 'MYR', 'Malayan Banking Berhad', 'Maybank'),
  bank('NG', 'NGN', 'Access Bank PLC', 'Access Bank'),
  bank('NG', 'NGN', 'Zenith Bank PLC', 'Zenith Bank'),
  bank('PH', 'PHP', 'BDO Unibank, Inc.', 'BDO'),
  bank('PK', 'PKR', 'Habib Bank Limited', 'HBL'),
  bank('RW', 'RWF', 'Bank of Kigali PLC', 'Bank of Kigali'),
  bank('SG', 'SGD', 'DBS Bank Ltd', 'DBS'),
  bank('TH', 'THB', 'Bangkok Bank PCL', 'Bangkok Bank'),
  bank('TZ', 'TZS', 'CRDB Bank PLC', 'CRDB'),
  bank('UG', 'UGX', 'Stanbic Bank Uganda', 'Stanbic Uganda'),
  bank('VN', 'VND', 'Vietcombank', 'Vietcombank'),
  bank('CM', 'XAF', 'Afriland First Bank', 'Afriland'),
  bank('SN', 'XOF', 'Société Générale Sénégal', 'SG Sénégal'),
  bank('ZA', 'ZAR', 'Standard Bank of South Africa', 'Standard Bank'),
  bank('ZM', 'ZMW', 'Zambia National Commercial Bank', 'Zanaco'),
];

/** The VASPs custodial wallet accounts can name, in the directory's order. */
export const VASPS: readonly Vasp[] = [
  { vaspName: 'Coinbase', url: 'https://www.coinbase.com' },
  { vaspName: 'Kraken', url: 'https://www.kraken.com' },
  { vaspName: 'Bitstamp', url: 'https://www.bitstamp.net' },
  { vaspName: 'Gemini', url: 'https://www.gemini.com' },
  { vaspName: 'Bitso', url: 'https://bitso.com' },
  { vaspName: 'Luno', url: 'https://www.luno.com' },
  { vaspName: 'Mercado Bitcoin', url: 'https://www.mercadobitcoin.com.br' },
  { vaspName: 'Railyard Sandbox Custody' },
];

/** An UMA provider as the table holds it; currencies by code (the answer carries Currency objects). */
export interface UmaProviderRow {
  readonly name: string;
  readonly domain: string;
  readonly supportedRegions: readonly string[];
  readonly supportedCurrencies: readonly string[];
  readonly lei: string;
  /** On the allow list of every sandbox platform: its users can be paid. The others are the "blocked" providers. */
  readonly allowListStatus: boolean;
}

/**
 * UMA providers, in the order they joined (the default `desc` order lists the last first). The sandbox's own provider
 * serves the sandbox receivers (`$success.usd@…` and the others); two are not on the allow list, to exercise the filter.
 */
export const UMA_PROVIDERS: readonly UmaProviderRow[] = [
  { name: 'Railyard Sandbox UMA', domain: SANDBOX_UMA_DOMAIN, supportedRegions: ['US', 'MX', 'GB', 'DE', 'FR', 'BR'], supportedCurrencies: ['USD', 'EUR', 'MXN', 'GBP', 'BRL'], lei: '5493001SANDBOXUMA001', allowListStatus: true },
  { name: 'Northwind Pay', domain: 'northwindpay.example', supportedRegions: ['US', 'CA'], supportedCurrencies: ['USD', 'CAD'], lei: '5493002NORTHWIND0002', allowListStatus: true },
  { name: 'Remesa Rápida', domain: 'remesarapida.example', supportedRegions: ['MX', 'GT', 'CO'], supportedCurrencies: ['MXN', 'GTQ', 'COP'], lei: '5493003REMESARAPID03', allowListStatus: true },
  { name: 'Euro Wallet Co', domain: 'eurowallet.example', supportedRegions: ['DE', 'FR', 'ES', 'NL', 'IT'], supportedCurrencies: ['EUR'], lei: '5493004EUROWALLET004', allowListStatus: false },
  { name: 'Lagos Link', domain: 'lagoslink.example', supportedRegions: ['NG', 'GH', 'KE'], supportedCurrencies: ['NGN', 'GHS', 'KES'], lei: '5493005LAGOSLINK0005', allowListStatus: true },
  { name: 'Shadow Remit', domain: 'shadowremit.example', supportedRegions: ['US', 'PH'], supportedCurrencies: ['USD', 'PHP'], lei: '5493006SHADOWREMIT6', allowListStatus: false },
];

/** The asset a network's fee is paid in: its decimals and its sandbox price in US dollars (a decimal string, exact). */
export interface NetworkAsset {
  readonly decimals: number;
  readonly usdPrice: string;
}

/** Fee assets. BTC's price is the sandbox market's (one dollar buys 0.00001 BTC). */
export const NETWORK_ASSETS: Readonly<Record<string, NetworkAsset>> = {
  SOL: { decimals: 9, usdPrice: '150' },
  ETH: { decimals: 18, usdPrice: '3000' },
  POL: { decimals: 18, usdPrice: '0.5' },
  BTC: { decimals: 8, usdPrice: '100000' },
};

/** A network withdrawals leave on: what its fee costs, in which asset, and the currencies it carries. */
export interface WithdrawalNetwork {
  readonly feeAsset: keyof typeof NETWORK_ASSETS;
  /** The network fee of one withdrawal, in minor units of `feeAsset` (lamports, wei, satoshis). */
  readonly networkFee: number;
  readonly currencies: readonly string[];
  /** The external-account type whose `address` checks apply to a destination on this network. */
  readonly walletAccountType: string;
}

/** Networks and their fees, by `cryptoNetwork`. */
export const WITHDRAWAL_NETWORKS: Readonly<Record<string, WithdrawalNetwork>> = {
  SOLANA: { feeAsset: 'SOL', networkFee: 5_000, currencies: ['USDC', 'USDT'], walletAccountType: 'SOLANA_WALLET' },
  ETHEREUM: { feeAsset: 'ETH', networkFee: 500_000_000_000_000, currencies: ['USDC', 'USDT'], walletAccountType: 'ETHEREUM_WALLET' },
  BASE: { feeAsset: 'ETH', networkFee: 2_000_000_000_000, currencies: ['USDC'], walletAccountType: 'BASE_WALLET' },
  POLYGON: { feeAsset: 'POL', networkFee: 5_000_000_000_000_000, currencies: ['USDC'], walletAccountType: 'POLYGON_WALLET' },
  SPARK: { feeAsset: 'BTC', networkFee: 1, currencies: ['BTC', 'USDB'], walletAccountType: 'SPARK_WALLET' },
  LIGHTNING: { feeAsset: 'BTC', networkFee: 10, currencies: ['BTC'], walletAccountType: 'LIGHTNING' },
  BITCOIN: { feeAsset: 'BTC', networkFee: 2_000, currencies: ['BTC'], walletAccountType: 'BITCOIN_L1' },
};

/** The service's own fee on a withdrawal, in basis points of the amount (rounded up to a minor unit). */
export const WITHDRAWAL_APPLICATION_FEE_BPS = 10;
