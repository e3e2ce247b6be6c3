// Drives a running sandbox with the `railyard` commands: `pnpm serve --clock virtual`, then
// `RAILYARD_BASE_URL=http://127.0.0.1:4100/2025-10-13 tsx index.ts`.
import { execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { runCliTour, type Railyard, type RailyardInBackground } from './tour.js';

// The bin of the installed engine package, run as a user runs `railyard`.
const bin = createRequire(import.meta.url).resolve('@railyard/engine/package.json').replace(/package\.json$/, 'dist/cli.cjs');
const railyard: Railyard = (args, env = {}) => new Promise((resolve) => {
  execFile(process.execPath, [bin, ...args], { env: { ...process.env, ...env } }, (error, stdout) => {
    resolve({ code: error === null ? 0 : Number((error as { code?: number }).code ?? 1), out: stdout });
  });
});
const inBackground: RailyardInBackground = (args, env = {}) => {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
  return { stderr: () => stderr, stop: () => (child.kill('SIGINT'), exited) };
};
await runCliTour(railyard, inBackground, process.env.RAILYARD_BASE_URL ?? 'http://127.0.0.1:4100/2025-10-13');
