/** This package's version, set by the build (tsup `define`, see tsup.base.ts); absent when run from source. */
declare const RAILYARD_VERSION: string | undefined;

/** The engine package's version, fixed at build time; `development` when run from source (the tests). */
export const ENGINE_VERSION: string = typeof RAILYARD_VERSION === 'string' ? RAILYARD_VERSION : 'development';
