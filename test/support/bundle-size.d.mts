// Types of bundle-size.mjs (plain JS so that `pnpm bench` can import it too).

/** What {@link measureBrowserBundle} measured. */
export interface BrowserBundleSize {
  specifier: string;
  minifiedBytes: number;
  gzipBytes: number;
  /** Every bundled file, relative to the repository root. */
  inputs: string[];
  /** Minified bytes per npm package, largest first. */
  packages: { name: string; bytes: number }[];
}

export const KB: number;
export const GZIP_TARGETS: Record<string, number>;
export const REPORTED_PACKAGES: string[];
export function packageOfInput(path: string): string;
export function measureBrowserBundle(specifier: string): Promise<BrowserBundleSize>;
export function formatBundleSize(size: BrowserBundleSize, options?: { packages?: number }): string;
