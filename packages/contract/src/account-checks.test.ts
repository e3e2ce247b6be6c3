import { describe, expect, it } from 'vitest';
import {
  base58Decode, checkAccountInfo, isValidAbaRoutingNumber, isValidBolt11Invoice, isValidClabe, isValidEvmAddress, isValidIban,
  isValidIfsc, isValidLightningAddress, isValidSolanaAddress, isValidSortCode, isValidSparkAddress, isValidTronAddress, toEip55,
} from './account-checks.js';

describe('IBAN', () => {
  it.each([
    'GB82WEST12345698765432', 'DE89370400440532013000', 'FR1420041010050500013M02606', 'NL91ABNA0417164300',
    'DK5000400440116243', 'AE070331234567890123456', 'IL620108000000099999999', 'GB82 WEST 1234 5698 7654 32',
  ])('accepts %s', (iban) => expect(isValidIban(iban)).toBe(true));
  it.each([
    'GB83WEST12345698765432', // wrong check digits
    'DE89370400440532013001', // one digit changed
    'GB82WEST1234569876543', // one short for GB
    'XX82WEST12345698765432', // unknown country
    'DE8937040044053201300!',
  ])('rejects %s', (iban) => expect(isValidIban(iban)).toBe(false));
});

describe('ABA routing number', () => {
  it.each(['021000021', '011000015', '026009593'])('accepts %s', (aba) => expect(isValidAbaRoutingNumber(aba)).toBe(true));
  it.each(['021000022', '011000016', '12345678', '02100002a'])('rejects %s', (aba) => expect(isValidAbaRoutingNumber(aba)).toBe(false));
});

describe('CLABE', () => {
  it('accepts a valid CLABE', () => expect(isValidClabe('002010077777777771')).toBe(true));
  it.each(['002010077777777772', '00201007777777777', '102010077777777771'])('rejects %s', (clabe) => expect(isValidClabe(clabe)).toBe(false));
});

describe('sort code and IFSC', () => {
  it('sort codes', () => {
    expect(isValidSortCode('601613')).toBe(true);
    expect(isValidSortCode('60-16-13')).toBe(true);
    expect(isValidSortCode('60161')).toBe(false);
    expect(isValidSortCode('60-1613')).toBe(false);
  });
  it('IFSC', () => {
    expect(isValidIfsc('HDFC0000001')).toBe(true);
    expect(isValidIfsc('SBIN0005943')).toBe(true);
    expect(isValidIfsc('HDFC1000001')).toBe(false);
    expect(isValidIfsc('hdfc0000001')).toBe(false);
    expect(isValidIfsc('HDFC000001')).toBe(false);
  });
});

describe('EVM address', () => {
  it.each([
    '0x52908400098527886E0F7030069857D2E4169EE7', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0x52908400098527886e0f7030069857d2e4169ee7',
  ])('accepts %s', (address) => expect(isValidEvmAddress(address)).toBe(true));
  it.each([
    '0x52908400098527886E0F7030069857D2E4169Ee7', // checksum broken by one case flip
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
    '0x52908400098527886E0F7030069857D2E4169EE', // 39 hex
    '52908400098527886E0F7030069857D2E4169EE7a', // no 0x
    '0xZ2908400098527886E0F7030069857D2E4169EE7',
  ])('rejects %s', (address) => expect(isValidEvmAddress(address)).toBe(false));
  it('computes the EIP-55 form', () =>
    expect(toEip55('52908400098527886e0f7030069857d2e4169ee7')).toBe('52908400098527886E0F7030069857D2E4169EE7'));
});

describe('Solana, Tron, Spark addresses', () => {
  it('base58 keeps leading zeros', () => expect(base58Decode('11111111111111111111111111111111')).toEqual(new Uint8Array(32)));
  it('Solana', () => {
    expect(isValidSolanaAddress('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')).toBe(true);
    expect(isValidSolanaAddress('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBe(true);
    expect(isValidSolanaAddress('11111111111111111111111111111111')).toBe(true);
    expect(isValidSolanaAddress('1111')).toBe(false);
    expect(isValidSolanaAddress('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D0')).toBe(false); // 0 is not base58
    expect(isValidSolanaAddress('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DATokenkeg')).toBe(false);
  });
  it('Tron', () => {
    expect(isValidTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
    expect(isValidTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(false); // checksum
    expect(isValidTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6')).toBe(false);
    expect(isValidTronAddress('0x52908400098527886E0F7030069857D2E4169EE7')).toBe(false);
  });
  it('Spark', () => {
    expect(isValidSparkAddress('sp1pgss9qx8dmw3ayhvnygf6fy6ewcdz3xwdme3vvs6ljwe0knylqdl6s8mpzhlfm')).toBe(true);
    expect(isValidSparkAddress('sprt1pgss9qx8dmw3ayhvnygf6fy6ewcdz3xwdme3vvs6ljwe0knylqdl6s8')).toBe(true);
    expect(isValidSparkAddress('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBe(false);
    expect(isValidSparkAddress('sp1bbbbbbbbbbbbbbbbbbbbbbbbbbbbb')).toBe(false); // b is not bech32
    expect(isValidSparkAddress('sp1Pgss9qx8dmw3ayhvnygf6fy6ewcdz3xwdme3')).toBe(false); // mixed case
  });
});

describe('Lightning', () => {
  const invoice = 'lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu';
  it('invoices', () => {
    expect(isValidBolt11Invoice(invoice)).toBe(true);
    expect(isValidBolt11Invoice(invoice.replace('lnbc', 'lntb'))).toBe(true);
    expect(isValidBolt11Invoice(invoice.toUpperCase())).toBe(true);
    expect(isValidBolt11Invoice(invoice.replace('lnbc', 'lnxy'))).toBe(false);
    expect(isValidBolt11Invoice('lnbc1short')).toBe(false);
  });
  it('lightning addresses', () => {
    expect(isValidLightningAddress('alice@getalby.com')).toBe(true);
    expect(isValidLightningAddress('alice@localhost')).toBe(false);
    expect(isValidLightningAddress('alice')).toBe(false);
  });
});

describe('checkAccountInfo', () => {
  it('lists every invalid field at once', () => {
    expect(checkAccountInfo('USD_ACCOUNT', { accountNumber: '1234', routingNumber: '021000022', intermediaryRoutingNumber: '011000016' }))
      .toEqual([
        { field: 'accountInfo.routingNumber', message: expect.any(String) },
        { field: 'accountInfo.intermediaryRoutingNumber', message: expect.any(String) },
      ]);
  });
  it('passes valid data and ignores absent fields', () => {
    expect(checkAccountInfo('USD_ACCOUNT', { accountNumber: '1234', routingNumber: '021000021' })).toEqual([]);
    expect(checkAccountInfo('EUR_ACCOUNT', { iban: 'DE89370400440532013000' })).toEqual([]);
    expect(checkAccountInfo('MXN_ACCOUNT', { clabeNumber: '002010077777777772' })).toHaveLength(1);
    expect(checkAccountInfo('NGN_ACCOUNT', { accountNumber: '0123456789' })).toEqual([]);
  });
});
