// Builds the packages when a dist/ is missing or older than its sources, so `pnpm serve` works on a fresh clone.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const packages = ['contract', 'engine', 'client', 'wallet'];

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function isStale() {
  return packages.some((name) => {
    const built = join(root, 'packages', name, 'dist', 'index.js');
    return !existsSync(built) || statSync(built).mtimeMs < newestSource(join(root, 'packages', name, 'src'));
  });
}

/**
 * Runs `pnpm build` (pnpm is the one running this script, or npx fetches it) with its output held back: a build that
 * works prints nothing, one that fails prints all of it and ends this process with the build's exit code.
 */
export function buildQuietly() {
  const pnpm = process.env.npm_execpath;
  const [command, args] = pnpm?.includes('pnpm') ? [process.execPath, [pnpm, 'build']] : ['npx', ['-y', 'pnpm@10', 'build']];
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  if (result.status === 0) return;
  process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? `${result.error.message}\n` : ''}`);
  console.error(`The build failed (exit ${result.status ?? result.signal}).`);
  process.exit(result.status || 1);
}

/** Runs `pnpm build` when needed. */
export function ensureBuilt() {
  if (!isStale()) return;
  console.log('Building packages…');
  buildQuietly();
}

if (import.meta.url === `file://${process.argv[1]}`) ensureBuilt();
