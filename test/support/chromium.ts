import { existsSync } from 'node:fs';

// Browser tests drive Debian's Chromium through playwright-core (never a downloaded browser) and skip without it.

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`[browser tests] skipped: ${CHROMIUM} is not installed (apt-get install -y chromium; .ci/run installs it before the tests)`);
}

/** Headless, sandbox-free, and quiet: no network of its own beyond what a test opens. */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];
