// The yardstick: a bare node:http server answering a fixed JSON body, about the size of a customer.
import { createServer } from 'node:http';

const body = JSON.stringify({
  id: 'Customer:00000000-0000-4000-8000-000000000001', customerType: 'INDIVIDUAL', platformCustomerId: 'bench',
  fullName: 'Bench Mark', kycStatus: 'UNVERIFIED', currencies: ['USD'], umaAddress: '$bench@example.com',
  createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', isDeleted: false,
});
const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
