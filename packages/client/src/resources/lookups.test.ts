import { describe, expect, it } from 'vitest';
import { setup } from '../test-support.js';

// client.discoveries, client.vasps: what the wire carries and how the answers are unwrapped and walked.

describe('client.discoveries.list', () => {
  it('sends the filters given and answers the banks, or none when the service leaves data out', async () => {
    const bank = { bankName: 'Access Bank PLC', displayName: 'Access Bank', country: 'NG', currency: 'NGN' };
    const { client, requests } = setup([{ body: { data: [bank] } }, { body: {} }]);
    expect(await client.discoveries.list({ country: 'NG', currency: 'NGN' })).toEqual([bank]);
    expect(await client.discoveries.list()).toEqual([]);
    expect(requests.map((r) => `${r.method} ${r.path}?${r.search}`)).toEqual(['GET /2025-10-13/discoveries?country=NG&currency=NGN', 'GET /2025-10-13/discoveries?']);
  });
});

describe('client.vasps.list', () => {
  it('walks every page by nextCursor, though the pages carry no totalCount', async () => {
    const { client, requests } = setup([
      { body: { data: [{ vaspName: 'Coinbase' }], hasMore: true, nextCursor: 'c2' } },
      { body: { data: [{ vaspName: 'Kraken', url: 'https://www.kraken.com' }], hasMore: false } },
    ]);
    const names: string[] = [];
    for await (const vasp of client.vasps.list({ limit: 1 })) names.push(vasp.vaspName);
    expect(names).toEqual(['Coinbase', 'Kraken']);
    expect(requests.map((r) => String(r.search))).toEqual(['limit=1', 'limit=1&cursor=c2']);
  });
});
