import type { z } from 'zod';

/**
 * The fields of zod's schema definition (`_zod.def`) that code walking a schema reads: `splitUnknownFields` here, and
 * the engine's valid-case twins (`http/valid-case.ts`). zod types the definition per schema kind; a walk takes any
 * schema and looks at the fields its kind has. `Check` types the refinements for a walk that rebuilds them.
 * @internal
 */
export interface SchemaDef<Check = unknown> {
  type: string;
  checks?: Check[];
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  options?: z.ZodType[];
  discriminator?: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
}

/**
 * The definition of `schema`, as {@link SchemaDef}.
 * @internal
 */
export const schemaDefOf = <Check = unknown>(schema: z.ZodType): SchemaDef<Check> =>
  (schema as unknown as { _zod: { def: SchemaDef<Check> } })._zod.def;
