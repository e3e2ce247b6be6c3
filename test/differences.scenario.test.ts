import { expect, it } from 'vitest';
import { ROOT_CREDENTIALS, describeOverTransports } from './support/transports.js';

// Rows of docs/differences.md whose behaviour no other scenario pins: each test sends what the reference documents
// and checks the answer Railyard gives instead.

describeOverTransports('where Railyard differs from the reference', (scope) => {
  it('a card operation takes no Idempotency-Key in the reference; one sent anyway replays the first answer', async () => {
    const created = await scope.transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: 'idempotent cards', regulated: true });
    const client = scope.transport.clientFor(created);
    const holder = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Card Holder' });
    const [account] = (await client.internalAccounts.list({ customerId: holder.id, currency: 'USD' })).data;
    const body = { cardholderId: holder.id, form: 'VIRTUAL' as const, fundingSources: [account!.id] };
    const first = await client.cards.create(body, { idempotencyKey: 'card-once' });
    const again = await client.cards.create(body, { idempotencyKey: 'card-once' });
    expect(again.id).toBe(first.id);
    expect((await client.cards.list()).data.map((card) => card.id)).toEqual([first.id]);
    await expect(client.cards.create({ ...body, platformCardId: 'other' }, { idempotencyKey: 'card-once' }))
      .rejects.toMatchObject({ status: 409, code: 'CONFLICT' });
  });
});
