/**
 * Fast parsers for valid request bodies. A 400 lists every invalid field at once, so the contract's cross-field
 * refinements run even when a field already failed (`onEveryObject`, a custom `when`), and zod cannot compile a schema
 * with such a condition. For the valid case the condition changes nothing: on input whose fields all pass, a refinement
 * runs with or without it. So the schema's valid-case twin, the same schema with those refinements running only after
 * the fields passed (zod's default), accepts exactly what the schema accepts and gives the same output, and it compiles.
 * Refused input is parsed again by the schema itself, which reports every field.
 *
 * This reads zod's schema definitions (`_zod.def`) through the contract's `schemaDefOf`, as `splitUnknownFields` does.
 */
import { schemaDefOf, type SchemaDef } from '@railyard/contract';
import { z } from 'zod';

interface Check {
  _zod: { def: { when?: unknown; check?: string }; check: unknown };
  constructor: new (def: object) => Check;
}

type Def = SchemaDef<Check>;

const defOf = schemaDefOf<Check>;
const cloneWith = (schema: z.ZodType, def: Def): z.ZodType => (schema as unknown as { clone(def: Def): z.ZodType }).clone(def);

/** The same check without its `when` condition: it then runs when the fields before it passed, as zod does by default. */
function withoutCondition(check: Check): Check {
  const { when: _when, ...def } = check._zod.def;
  const copy = new check.constructor(def);
  copy._zod.check = check._zod.check;
  return copy;
}

/** The schemas a definition holds, by the field that holds them (a list for `options` and `items`). */
const CHILD_FIELDS = ['catchall', 'innerType', 'element', 'keyType', 'valueType', 'in', 'out', 'rest', 'left', 'right'] as const;

/**
 * `schema` with every refinement that has a custom `when` condition running only after the fields passed; the schema
 * itself when it has none. Memoized: a twin is built once per schema.
 */
export function validCaseTwin(schema: z.ZodType): z.ZodType {
  const known = twins.get(schema);
  if (known !== undefined) return known;
  const twin = buildTwin(schema);
  twins.set(schema, twin);
  return twin;
}
const twins = new WeakMap<z.ZodType, z.ZodType>();

function buildTwin(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  // A lazy schema may refer to itself; its twin would never end. It stays as it is (and is not compiled).
  if (def.type === 'lazy') return schema;
  let changed: Def | undefined;
  const change = (): Def => (changed ??= { ...def });
  if (def.checks?.some((check) => check._zod.def.when !== undefined)) {
    change().checks = def.checks.map((check) => (check._zod.def.when === undefined ? check : withoutCondition(check)));
  }
  if (def.type === 'object' && def.shape !== undefined) {
    const shape = def.shape;
    let twinShape: Record<string, z.ZodType> | undefined;
    for (const key of Object.keys(shape)) {
      const inner = validCaseTwin(shape[key]!);
      if (inner !== shape[key]) (twinShape ??= { ...shape })[key] = inner;
    }
    if (twinShape) change().shape = twinShape;
  }
  for (const field of ['options', 'items'] as const) {
    const list = def[field];
    if (!Array.isArray(list)) continue;
    const twinList = list.map(validCaseTwin);
    if (twinList.some((inner, i) => inner !== list[i])) change()[field] = twinList;
  }
  for (const field of CHILD_FIELDS) {
    const inner = def[field];
    if (inner === undefined || inner === null) continue;
    const twin = validCaseTwin(inner);
    if (twin !== inner) change()[field] = twin;
  }
  return changed ? cloneWith(schema, changed) : schema;
}

/** What the HTTP layer parses valid input with: a schema or its compiled parser. */
export type SafeParser = { safeParse(value: unknown): { success: boolean; data?: unknown } };

/**
 * The compiled parser of `schema` for the valid case: `z.compile` of the schema, or of its valid-case twin when the
 * schema has refinements with a `when` condition; the schema itself when neither compiles.
 */
export function compiledForValidInput(schema: z.ZodType): SafeParser {
  const compiled = z.compile(schema);
  if (compiled !== schema) return compiled;
  const twin = validCaseTwin(schema);
  if (twin === schema) return schema;
  const compiledTwin = z.compile(twin);
  return compiledTwin === twin ? schema : compiledTwin;
}
