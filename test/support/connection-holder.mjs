// A process that holds many connections to a server, so a check can open more of them than its own open-files limit
// allows (its parent raises this process's limit to the hard limit): `node connection-holder.mjs <port> <idle> <slow>`.
// `idle` connections send nothing; `slow` ones send the start of a request's headers, then one more header byte every
// second (slowloris). Prints one JSON line once all are open ({opened, failed}), and one for each line read on stdin
// ({open, closedByServer, answered: {status: count}}). Closes everything and exits when stdin ends.
import { connect } from 'node:net';
import { createInterface } from 'node:readline';

const [port, idle, slow] = process.argv.slice(2).map(Number);
const sockets = new Set();
const slowSockets = new Set();
const answered = {};
let failed = 0;
let closedByServer = 0;
let stopping = false;

function open(kind) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      sockets.add(socket);
      if (kind === 'slow') {
        slowSockets.add(socket);
        socket.write('GET /2025-10-13/customers HTTP/1.1\r\nHost: holder\r\nX-Slow: ');
      }
      resolve();
    });
    socket.on('data', (chunk) => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1];
      if (status) answered[status] = (answered[status] ?? 0) + 1;
    });
    socket.on('error', () => {
      if (!sockets.has(socket)) failed++;
      resolve();
    });
    socket.on('close', () => {
      if (sockets.delete(socket) && !stopping) closedByServer++;
      slowSockets.delete(socket);
    });
  });
}

// In batches: a burst larger than the listen backlog would see connections refused.
const plan = [...Array(idle).fill('idle'), ...Array(slow).fill('slow')];
for (let at = 0; at < plan.length; at += 200) await Promise.all(plan.slice(at, at + 200).map(open));
const drip = setInterval(() => {
  for (const socket of slowSockets) socket.write('a');
}, 1_000);
console.log(JSON.stringify({ opened: sockets.size, failed }));

createInterface({ input: process.stdin })
  .on('line', () => console.log(JSON.stringify({ open: sockets.size, closedByServer, answered })))
  .on('close', () => {
    stopping = true;
    clearInterval(drip);
    for (const socket of sockets) socket.destroy();
    process.exit(0);
  });
