/**
 * How many platforms an engine holds unless told otherwise (`createEngine({ maxPlatforms })`, `railyard serve
 * --max-platforms`). A module of its own, so the CLI reads it without loading the engine.
 */
export const DEFAULT_MAX_PLATFORMS = 10_000;
