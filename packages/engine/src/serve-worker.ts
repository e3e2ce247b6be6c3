// The worker entry of `railyard serve`: runs the server thread's bundle (serve-thread.ts, built as CommonJS) with V8's
// code cache, so every start after the first skips most of compiling it (server/code-cache.ts).
import { fileURLToPath } from 'node:url';
import { runWithCodeCache } from './server/code-cache.js';

runWithCodeCache(fileURLToPath(new URL('./serve-thread.cjs', import.meta.url)));
