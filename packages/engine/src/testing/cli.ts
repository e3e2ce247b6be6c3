import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** The built `railyard` bin, as a user runs it (the CLI tests run it as a child process). */
export const CLI_PATH = fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url));

/** The environment of a shell that set no `RAILYARD_*` credentials or base URL, whatever the test runner's has. */
export const NO_CREDENTIALS = { RAILYARD_CLIENT_ID: undefined, RAILYARD_CLIENT_SECRET: undefined, RAILYARD_BASE_URL: undefined };

/** Test helper: runs `railyard ARGS` to its end; resolves with its exit code and what it printed. */
export async function runRailyard(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; out: string; err: string }> {
  const child = spawn(process.execPath, [CLI_PATH, ...args], { env: { ...process.env, ...NO_CREDENTIALS, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const [code] = await once(child, 'exit');
  return { code: code as number, out, err };
}
