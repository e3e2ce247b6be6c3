import { DOCUMENT_FORM_MAX_BYTES, DOCUMENT_MAX_BYTES, DOCUMENT_MIME_TYPES, type DocumentMimeType, type FieldError } from '@railyard/contract';
import { ApiError, payloadTooLarge } from '../core/errors.js';
import type { Incoming } from '../http/app.js';

// Reading a document upload (multipart/form-data) and checking its file by content (SPEC §2.7, §8).

/** Largest upload body read (the contract's limit of the upload endpoints). */
export const DOCUMENT_FORM_LIMIT = DOCUMENT_FORM_MAX_BYTES;

/** The file part of an upload. */
export interface UploadedFile {
  readonly name: string;
  /** The part's Content-Type as sent (lower case, without parameters); `''` when none was sent. */
  readonly declaredType: string;
  readonly bytes: Uint8Array;
}

/** An upload as read from the wire, not yet validated. */
export interface DocumentForm {
  /** Text fields by name; empty values (an unfilled HTML form field) count as absent. */
  readonly fields: Record<string, string>;
  readonly file?: UploadedFile | undefined;
  /** Problems with the form's shape (a file where text belongs, a field sent twice, `file` as text). */
  readonly problems: readonly FieldError[];
}

/**
 * Reads a multipart/form-data upload: at most {@link DOCUMENT_FORM_LIMIT} bytes (413 beyond, without reading further);
 * a body that is not multipart/form-data, or does not parse as one, is 400 INVALID_REQUEST_FORMAT.
 */
export function readDocumentForm(request: Incoming): Promise<DocumentForm> {
  return readMultipartForm(request, {
    limit: DOCUMENT_FORM_LIMIT,
    what: 'the document',
    tooLarge: `The upload is larger than ${DOCUMENT_FORM_LIMIT} bytes: a document file may be at most 10 MB (${DOCUMENT_MAX_BYTES} bytes)`,
  });
}

/** How {@link readMultipartForm} bounds and describes an upload. */
export interface MultipartLimits {
  /** Largest body read, in bytes. */
  readonly limit: number;
  /** What the `file` part holds, for messages (`the document`, `the CSV file`). */
  readonly what: string;
  /** The message of the 413 for a body over `limit`. */
  readonly tooLarge: string;
}

/**
 * Reads any multipart/form-data upload with a `file` part: at most `limit` bytes (413 on `file` beyond, without reading
 * further); a body that is not multipart/form-data, or does not parse as one, is 400 INVALID_REQUEST_FORMAT.
 */
export async function readMultipartForm(request: Incoming, limits: MultipartLimits): Promise<DocumentForm> {
  const contentType = request.header('content-type') ?? '';
  if (!/^multipart\/form-data\s*;.*\bboundary=/i.test(contentType)) {
    throw new ApiError(400, 'INVALID_REQUEST_FORMAT', `Content-Type must be multipart/form-data with a boundary (send ${limits.what} as a form with a "file" part), not ${contentType || 'none'}`);
  }
  let bytes: Uint8Array;
  try {
    bytes = await request.bytes(limits.limit);
  } catch (error) {
    if (error instanceof ApiError && error.status === 413) throw payloadTooLarge(limits.limit, limits.tooLarge, 'file');
    throw error;
  }
  return parseDocumentForm(bytes, contentType);
}

/** Parses the bytes of a multipart/form-data body (see {@link readDocumentForm}). */
export async function parseDocumentForm(bytes: Uint8Array, contentType: string): Promise<DocumentForm> {
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new ApiError(400, 'INVALID_REQUEST_FORMAT', 'The body is not a valid multipart/form-data body (check the boundary and that every part is complete)');
  }
  const fields: Record<string, string> = {};
  const problems: FieldError[] = [];
  const seen = new Set<string>();
  const files: File[] = [];
  for (const [name, value] of form) {
    if (name === 'file') {
      if (typeof value === 'string') problems.push({ field: 'file', message: 'must be a file part (with a filename), not a text field' });
      else files.push(value);
      continue;
    }
    if (seen.has(name)) {
      problems.push({ field: name, message: 'must be sent once' });
      continue;
    }
    seen.add(name);
    if (typeof value !== 'string') problems.push({ field: name, message: 'must be a text field, not a file' });
    else if (value !== '') fields[name] = value;
  }
  if (files.length > 1) problems.push({ field: 'file', message: `must be a single file, not ${files.length}` });
  const part = files[0];
  const file = part === undefined ? undefined : {
    name: part.name,
    declaredType: part.type.split(';')[0]!.trim().toLowerCase(),
    bytes: new Uint8Array(await part.arrayBuffer()),
  };
  return { fields, file, problems };
}

/** Magic bytes of the accepted file types. */
const SIGNATURES: readonly { type: DocumentMimeType; bytes: readonly number[]; name: string }[] = [
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], name: 'PDF' }, // %PDF-
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff], name: 'JPEG' },
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], name: 'PNG' },
];

/** The accepted type the content is, by its first bytes; `undefined` for anything else. */
export function sniffDocumentType(bytes: Uint8Array): DocumentMimeType | undefined {
  return SIGNATURES.find((s) => s.bytes.length <= bytes.length && s.bytes.every((b, i) => bytes[i] === b))?.type;
}

/** Declared types that say nothing about the content (the browser did not know): the content decides. */
const UNDECLARED = new Set(['', 'application/octet-stream']);
/** Spellings of an accepted type that some clients send. */
const ALIASES: Record<string, DocumentMimeType> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg', 'application/x-pdf': 'application/pdf' };

/**
 * Checks the file part: present, named, at most 10 MB, PDF/JPEG/PNG by content, and its declared type (if any) agreeing
 * with the content. Returns the content type, or the field errors on `file`.
 */
export function checkDocumentFile(file: UploadedFile | undefined): { contentType?: DocumentMimeType; errors: FieldError[] } {
  if (file === undefined) {
    return { errors: [{ field: 'file', message: 'is required: attach the document as a file part named "file"', constraint: { required: true } }] };
  }
  const errors: FieldError[] = [];
  const accepted = [...DOCUMENT_MIME_TYPES];
  if (file.name.trim() === '') errors.push({ field: 'file', message: 'must have a file name' });
  else if (file.name.length > 255) errors.push({ field: 'file', message: 'must have a file name of at most 255 characters', constraint: { maxLength: 255 } });
  if (file.bytes.byteLength > DOCUMENT_MAX_BYTES) {
    errors.push({ field: 'file', message: `is ${file.bytes.byteLength} bytes: files may be at most 10 MB (${DOCUMENT_MAX_BYTES} bytes)`, constraint: { maximum: DOCUMENT_MAX_BYTES } });
  }
  const sniffed = sniffDocumentType(file.bytes);
  if (sniffed === undefined) {
    const what = file.bytes.byteLength === 0 ? 'is empty' : 'is not a PDF, JPEG or PNG: its content starts with none of their signatures';
    errors.push({ field: 'file', message: `${what}; accepted types are ${accepted.join(', ')}`, constraint: { enum: accepted } });
    return { errors };
  }
  const declared = ALIASES[file.declaredType] ?? file.declaredType;
  if (!UNDECLARED.has(declared)) {
    if (!(accepted as string[]).includes(declared)) {
      errors.push({ field: 'file', message: `is declared as ${declared}; accepted types are ${accepted.join(', ')}`, constraint: { enum: accepted } });
    } else if (declared !== sniffed) {
      const name = SIGNATURES.find((s) => s.type === sniffed)!.name;
      errors.push({ field: 'file', message: `is declared as ${declared} but its content is a ${name} (${sniffed})`, constraint: { enum: [sniffed] } });
    }
  }
  return errors.length > 0 ? { errors } : { contentType: sniffed, errors };
}
