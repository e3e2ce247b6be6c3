// The worker entry of `railyard serve`: runs the server thread's bundle (serve-thread.ts, built as CommonJS) with V8's
// code cache, so every start after the first skips most of compiling it (server/code-cache.ts). The launcher reads the
// bundle and its cache while this thread boots, and sends them as the first message (server/thread.ts). This entry is
// built as CommonJS too: a worker whose entry is an ES module starts Node's ES module loader first.
import { channel } from 'node:diagnostics_channel';
import { parentPort } from 'node:worker_threads';
import { runWithCodeCache } from './server/code-cache.js';
import type { ServeBundle } from './server/thread.js';

parentPort!.once('message', ({ files }: ServeBundle) => {
  // The bundle attaches its own listener for the launcher's later messages while it runs, in this same task.
  const run = runWithCodeCache(files);

  // The cache written at start holds the code that built the server; once the first answer is out, the code that
  // serves a request has been compiled too, and the cache is written again with it (once: the refreshed cache is
  // kept). Node reports every finished response on this channel; the subscription ends with the first.
  if (run.refreshWanted) {
    const finished = channel('http.server.response.finish');
    const onFirstAnswer = () => {
      finished.unsubscribe(onFirstAnswer);
      setImmediate(() => run.refresh());
    };
    finished.subscribe(onFirstAnswer);
  }
});
