// The worker entry of `railyard serve`: runs the server thread's bundle (serve-thread.ts, built as CommonJS) with V8's
// code cache, so every start after the first skips most of compiling it (server/code-cache.ts). This entry is built as
// CommonJS too: a worker whose entry is an ES module starts Node's ES module loader first, some 20 ms of every cold
// start (docs/benchmarks.md).
import { channel } from 'node:diagnostics_channel';
import { join } from 'node:path';
import { runWithCodeCache } from './server/code-cache.js';

const run = runWithCodeCache(join(__dirname, 'serve-thread.cjs'));

// The cache written at start holds the code that built the server; once the first answer is out, the code that serves
// a request has been compiled too, and the cache is written again with it (once: the refreshed cache is kept). Node
// reports every finished response on this channel; the subscription ends with the first.
if (run.refreshWanted) {
  const finished = channel('http.server.response.finish');
  const onFirstAnswer = () => {
    finished.unsubscribe(onFirstAnswer);
    setImmediate(() => run.refresh());
  };
  finished.subscribe(onFirstAnswer);
}
