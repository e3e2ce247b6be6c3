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

/** Runs `pnpm build` when needed; pnpm is the one running this script, or npx fetches it. */
export function ensureBuilt() {
  if (!isStale()) return;
  console.log('Building packages…');
  const pnpm = process.env.npm_execpath;
  const result = pnpm
    ? spawnSync(process.execPath, [pnpm, 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npx', ['-y', 'pnpm@10', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (import.meta.url === `file://${process.argv[1]}`) ensureBuilt();
