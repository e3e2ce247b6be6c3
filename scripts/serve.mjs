// `pnpm serve [--port N] [--clock virtual] …`: builds if needed, then runs the engine's `railyard serve`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './ensure-built.mjs';

ensureBuilt();
const cli = fileURLToPath(new URL('../packages/engine/dist/cli.cjs', import.meta.url));
const child = spawn(process.execPath, [cli, 'serve', ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
