import type { Engine } from '@railyard/engine';
import type { RawAnswer, RawCall } from '../support/raw-api.js';

/** What a trigger gets: raw calls as the default platform over the in-process transport, and the engine itself (its clock, controls). */
export interface TriggerContext { readonly call: RawCall; readonly engine: Engine }
/** A trigger makes the requests that end in the code and returns the answer that carries it. */
export type CodeTriggers = Readonly<Record<string, (context: TriggerContext) => Promise<RawAnswer>>>;
