import type { CustomerType, FieldError } from '@railyard/contract';

// The columns of a bulk customer import and where each goes in a `POST /customers` request.

/** One column of the CSV. */
interface Column {
  /** Where the value goes in the create request (a dot path); none for columns the customer has no field for. */
  readonly path?: string;
  /** The customer types that must have a value in it. */
  readonly requiredFor: readonly CustomerType[];
  /** The customer types it is read for (both when absent). */
  readonly readFor?: readonly CustomerType[];
}

const BOTH: readonly CustomerType[] = ['INDIVIDUAL', 'BUSINESS'];
const INDIVIDUAL: readonly CustomerType[] = ['INDIVIDUAL'];
const BUSINESS: readonly CustomerType[] = ['BUSINESS'];

/**
 * Every column, by header name. `platformAccountId` and `description` are accepted and not stored: a customer has no
 * field for them. Columns not listed here are ignored, as `POST /customers` ignores fields it does not know.
 */
export const CSV_COLUMNS: Readonly<Record<string, Column>> = {
  umaAddress: { path: 'umaAddress', requiredFor: BOTH },
  platformCustomerId: { path: 'platformCustomerId', requiredFor: BOTH },
  customerType: { path: 'customerType', requiredFor: BOTH },
  fullName: { path: 'fullName', requiredFor: INDIVIDUAL, readFor: INDIVIDUAL },
  birthDate: { path: 'birthDate', requiredFor: INDIVIDUAL, readFor: INDIVIDUAL },
  email: { path: 'email', requiredFor: [] },
  businessLegalName: { path: 'businessInfo.legalName', requiredFor: BUSINESS, readFor: BUSINESS },
  businessRegistrationNumber: { path: 'businessInfo.registrationNumber', requiredFor: [], readFor: BUSINESS },
  businessTaxId: { path: 'businessInfo.taxId', requiredFor: [], readFor: BUSINESS },
  addressLine1: { path: 'address.line1', requiredFor: BOTH },
  addressLine2: { path: 'address.line2', requiredFor: [] },
  city: { path: 'address.city', requiredFor: BOTH },
  state: { path: 'address.state', requiredFor: BOTH },
  postalCode: { path: 'address.postalCode', requiredFor: BOTH },
  country: { path: 'address.country', requiredFor: BOTH },
  platformAccountId: { requiredFor: [] },
  description: { requiredFor: [] },
};

/** The columns every file must have. */
export const REQUIRED_HEADER_COLUMNS = ['umaAddress', 'platformCustomerId', 'customerType'] as const;

/** The column of each request path, to name a field error by the column the file has. */
const COLUMN_OF_PATH = new Map(Object.entries(CSV_COLUMNS).flatMap(([name, column]) => (column.path ? [[column.path, name] as const] : [])));

/** A field error named by its column where the field comes from one (`address.line1` → `addressLine1`). */
export const byColumn = (error: FieldError): FieldError => {
  const column = COLUMN_OF_PATH.get(error.field);
  return column === undefined ? error : { ...error, field: column };
};

/** Where each known column is in the file: its index, by column name. */
export type HeaderMap = ReadonlyMap<string, number>;

/**
 * Reads the header row: known columns matched without regard to case or surrounding spaces. Returns the columns'
 * places, or the problems that make the file unusable (a required column missing, a column named twice).
 */
export function readHeader(fields: readonly string[]): { columns: HeaderMap; problems: FieldError[] } {
  const byLowerName = new Map(Object.keys(CSV_COLUMNS).map((name) => [name.toLowerCase(), name]));
  const columns = new Map<string, number>();
  const problems: FieldError[] = [];
  fields.forEach((raw, index) => {
    const name = byLowerName.get(raw.trim().toLowerCase());
    if (name === undefined) return;
    if (columns.has(name)) problems.push({ field: name, message: `is named twice in the header (columns ${columns.get(name)! + 1} and ${index + 1})` });
    else columns.set(name, index);
  });
  for (const name of REQUIRED_HEADER_COLUMNS) {
    if (!columns.has(name)) problems.push({ field: name, message: 'is a required column of the header row', constraint: { required: true } });
  }
  return { columns, problems };
}

/**
 * A row as the `POST /customers` body it stands for (empty cells are absent), with the errors of the columns the file
 * format requires for the row's customer type and that are empty.
 */
export function rowRequest(columns: HeaderMap, fields: readonly string[]): { body: Record<string, unknown>; missing: FieldError[] } {
  const cell = (name: string): string | undefined => {
    const index = columns.get(name);
    const value = index === undefined ? undefined : fields[index];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const typeCell = cell('customerType');
  const type = typeCell === 'INDIVIDUAL' || typeCell === 'BUSINESS' ? typeCell : undefined;
  const body: Record<string, unknown> = {};
  const missing: FieldError[] = [];
  for (const [name, column] of Object.entries(CSV_COLUMNS)) {
    const value = cell(name);
    if (value === undefined) {
      const required = type === undefined ? column.requiredFor === BOTH : column.requiredFor.includes(type);
      if (required) missing.push({ field: name, message: 'is a required column: it must not be empty', constraint: { required: true } });
      continue;
    }
    if (column.path === undefined || (type !== undefined && column.readFor !== undefined && !column.readFor.includes(type))) continue;
    setAt(body, column.path, name === 'umaAddress' ? withDollar(value) : value);
  }
  // A business without any businessInfo cell: its legal name is reported as the missing column, not `businessInfo`.
  if (type === 'BUSINESS') body.businessInfo ??= {};
  return { body, missing };
}

/**
 * An UMA address with its leading `$`, added when the cell lacks it: the reference's own example file writes its
 * addresses without one (`john.doe@uma.domain.com`). `POST /customers` then checks the rest of the address.
 */
export const withDollar = (address: string): string => (address.startsWith('$') ? address : `$${address}`);

/** Sets a dot path of a plain object, making the objects on the way. */
function setAt(target: Record<string, unknown>, path: string, value: string): void {
  const dot = path.indexOf('.');
  if (dot === -1) {
    target[path] = value;
    return;
  }
  const head = path.slice(0, dot);
  const inner = (target[head] ??= {}) as Record<string, unknown>;
  setAt(inner, path.slice(dot + 1), value);
}
