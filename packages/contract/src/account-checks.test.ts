import { describe, expect, it } from 'vitest';
import {
  base58Decode, checkAccountInfo, isValidAbaRoutingNumber, isValidBolt11Invoice, isValidClabe, isValidEvmAddress, isValidIban,
  isValidIfsc, isValidLightningAddress, isValidSolanaAddress, isValidSortCode, isValidSparkAddress, isValidSparkChecksum, isValidTronAddress, toEip55,
  SPARK_ADDRESS_PREFIXES,
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
});

describe('Spark addresses', () => {
  // Real addresses from the Spark SDK's tests and, for every network, the address of the secp256k1 generator point.
  const real = [
    'spark1pgss9qg3vdslzmt2name9v550skuvlu6lj5xt9sly90k7p0gxughlqv023jqmc',
    'sp1pgssxwh6hznfdc3c0cuqrhgttder539d52a0rqcf34amge69huh664gd2ew787',
    'sparkrt1pgssx5us3wkqjza8g80xz3a9gznx25msq6g3ty8exfym9q3ahcv86vsnxxdy83',
    'sprt1pgssx63fa5g6uyv450rajp5ndwy9laxzpsp9e37su58jddmcdsvhgm5n7y0ud6',
    'sparkl1pgss9qesd8kc9a00ql56lgm56aylsmygg90yahqxp8tmp7ltdhje98zwv6zmy8',
    'spl1pgss9qesd8kc9a00ql56lgm56aylsmygg90yahqxp8tmp7ltdhje98zwz5qc3h',
    'sparkt1pgssy7d7vel0nh9m4326qc54e6rskpczn07dktww9rv4nu5ptvt0s9ucr4k6m4',
    'sparks1pgssy7d7vel0nh9m4326qc54e6rskpczn07dktww9rv4nu5ptvt0s9uc9yhxtx',
    'spt1pgssy7d7vel0nh9m4326qc54e6rskpczn07dktww9rv4nu5ptvt0s9ucdm5ew9',
    'sps1pgssy7d7vel0nh9m4326qc54e6rskpczn07dktww9rv4nu5ptvt0s9uct2497k',
  ];

  it('accepts every current and legacy prefix, and a real address always passes its checksum', () => {
    expect(new Set(real.map((a) => a.slice(0, a.lastIndexOf('1')))).size).toBe(SPARK_ADDRESS_PREFIXES.length);
    for (const address of real) {
      expect(isValidSparkAddress(address), address).toBe(true);
      expect(isValidSparkChecksum(address), address).toBe(true);
      expect(isValidSparkChecksum(address.toUpperCase()), address).toBe(true);
    }
  });

  it('catches a typo in any single character with the bech32m checksum', () => {
    const address = real[0]!;
    const data = address.indexOf('1') + 1;
    for (let i = data; i < address.length; i++) {
      const typo = address.slice(0, i) + (address[i] === 'q' ? 'p' : 'q') + address.slice(i + 1);
      expect(isValidSparkAddress(typo)).toBe(true); // still well formed…
      expect(isValidSparkChecksum(typo), typo).toBe(false); // …but the checksum catches it
    }
  });

  it('refuses what is not a Spark address by form', () => {
    expect(isValidSparkAddress('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBe(false);
    expect(isValidSparkAddress('sparkx1pgssy7d7vel0nh9m4326qc54e6rskpczn07dktw')).toBe(false); // unknown network
    expect(isValidSparkAddress('sp1bbbbbbbbbbbbbbbbbbbbbbbbbbbbb')).toBe(false); // b is not bech32
    expect(isValidSparkAddress('sp1Pgss9qx8dmw3ayhvnygf6fy6ewcdz3xwdme3')).toBe(false); // mixed case
    expect(isValidSparkAddress('spark1')).toBe(false);
  });
});

describe('Lightning', () => {
  const invoice = 'lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu';
  it('invoices', () => {
    expect(isValidBolt11Invoice(invoice)).toBe(true);
    for (const network of ['lntb', 'lnbcrt', 'lntbs']) expect(isValidBolt11Invoice(invoice.replace('lnbc', network)), network).toBe(true);
    expect(isValidBolt11Invoice(invoice.toUpperCase())).toBe(true);
    expect(isValidBolt11Invoice(invoice.replace('lnbc', 'bc'))).toBe(false);
    expect(isValidBolt11Invoice('lnbc1short')).toBe(false);
  });
  it('lightning addresses', () => {
    expect(isValidLightningAddress('alice@getalby.com')).toBe(true);
    expect(isValidLightningAddress('alice@localhost:8080')).toBe(true);
    expect(isValidLightningAddress('alice')).toBe(false);
    expect(isValidLightningAddress('a@b@c')).toBe(false);
  });
});

describe('checkAccountInfo', () => {
  // Values from the reference's own documentation: a lenient platform must take every one.
  const documented = {
    USD_ACCOUNT: { accountNumber: '12345678901', routingNumber: '123456789' },
    MXN_ACCOUNT: { clabeNumber: '123456789012345678' },
    DKK_ACCOUNT: { iban: 'DK1234567890123456' },
    ETHEREUM_WALLET: { address: '0xAbCDEF1234567890aBCdEf1234567890ABcDef12' },
    SPARK_WALLET: { address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu' },
    SOLANA_WALLET: { address: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU' },
    // SPEC §4.6 magic suffixes: values no checksum passes.
    TRON_WALLET: { address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjL002' },
  } as const;

  it('accepts the reference\'s documented values and magic-suffix wallets on a lenient platform', () => {
    for (const [type, info] of Object.entries(documented)) expect(checkAccountInfo(type, info), type).toEqual([]);
  });

  it('checks checksums on a strict platform, listing every invalid field at once', () => {
    const strict = Object.entries(documented).map(([type, info]) => [type, checkAccountInfo(type, info, { strict: true }).map((e) => e.field)]);
    expect(Object.fromEntries(strict)).toEqual({
      USD_ACCOUNT: ['accountInfo.routingNumber'], MXN_ACCOUNT: ['accountInfo.clabeNumber'], DKK_ACCOUNT: ['accountInfo.iban'],
      ETHEREUM_WALLET: ['accountInfo.address'], SPARK_WALLET: ['accountInfo.address'], SOLANA_WALLET: [], TRON_WALLET: ['accountInfo.address'],
    });
    expect(checkAccountInfo('USD_ACCOUNT', { accountNumber: '1234', routingNumber: '021000022', intermediaryRoutingNumber: '011000016' }, { strict: true }))
      .toEqual([
        { field: 'accountInfo.routingNumber', message: expect.any(String) },
        { field: 'accountInfo.intermediaryRoutingNumber', message: expect.any(String) },
      ]);
  });

  it('checks the form on every platform', () => {
    expect(checkAccountInfo('ETHEREUM_WALLET', { address: '0x1234' })).toEqual([{ field: 'accountInfo.address', message: expect.stringContaining('40 hex') }]);
    expect(checkAccountInfo('SPARK_WALLET', { address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' })[0]?.message).toContain('spark1…');
    expect(checkAccountInfo('GBP_ACCOUNT', { sortCode: '04-00' })).toHaveLength(1);
  });

  it('passes valid data and ignores absent fields', () => {
    expect(checkAccountInfo('USD_ACCOUNT', { accountNumber: '1234', routingNumber: '021000021' }, { strict: true })).toEqual([]);
    expect(checkAccountInfo('EUR_ACCOUNT', { iban: 'DE89370400440532013000' }, { strict: true })).toEqual([]);
    expect(checkAccountInfo('NGN_ACCOUNT', { accountNumber: '0123456789' }, { strict: true })).toEqual([]);
  });
});
