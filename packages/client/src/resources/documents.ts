import type { Document, DocumentSide, DocumentType, ListDocumentsQuery } from '@railyard/contract/routes';
import { documentEndpoints } from '@railyard/contract/routes';
import { APIPromise, parseJsonBody, type RawAPIResponse } from '../core/api-promise.js';
import { buildPath, type PageItemOf, type QueryParams, type ResultOf } from '../core/endpoint.js';
import { RailyardError } from '../core/errors.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';

/** A stored document (the file itself is never returned). */
export type { Document };
/** Query of {@link Documents.list}: `documentHolder`, `limit`, `cursor`. */
export type DocumentListParams = ListDocumentsQuery;
export type { DocumentSide, DocumentType };

/**
 * A document's file: a `Blob` (or `File`), bytes (`Uint8Array`, Node `Buffer`, `ArrayBuffer`), or, in Node only, the
 * path of a file to read.
 */
export type DocumentFile = Blob | Uint8Array | ArrayBuffer | string;

/** Fields of {@link Documents.replace}: those of an upload minus the holder. */
export interface DocumentReplaceParams {
  /** PDF, JPEG or PNG, at most 10 MB; the sandbox checks the content, not only the type. */
  file: DocumentFile;
  /**
   * The file name sent with the file. Defaults to a `File`'s name, or a path's last segment, else `document` plus
   * the extension of the content's type. Sandbox triggers are read from it (see docs/onboarding-documents.md).
   */
  fileName?: string;
  documentType: DocumentType;
  /** ISO 3166-1 alpha-2 country that issued the document. */
  country: string;
  /** FRONT or BACK: required for DRIVERS_LICENSE and NATIONAL_ID, not sent for PASSPORT. */
  side?: DocumentSide;
  /** Required for identity documents (PASSPORT, DRIVERS_LICENSE, NATIONAL_ID). */
  documentNumber?: string;
  /** Required for identity documents. */
  issuingAuthority?: string;
  /** `YYYY-MM-DD`: required for proof of address, which must be dated within the last 3 months. */
  issuedOn?: string;
}

/** Fields of {@link Documents.upload}. */
export interface DocumentUploadParams extends DocumentReplaceParams {
  /** The customer or beneficial owner the document belongs to. */
  documentHolder: string;
}

/** Documents: identity, proof-of-address and business documents of customers and beneficial owners. */
export class Documents extends APIResource {
  /**
   * Uploads a document as multipart/form-data:
   *
   * ```ts
   * await client.documents.upload({ file: './passport.jpg', documentHolder: customer.id, documentType: 'PASSPORT',
   *   country: 'US', documentNumber: 'X1234567', issuingAuthority: 'US Department of State' });
   * ```
   *
   * Invalid fields reject with a {@link BadRequestError} listing every one; a photo failing the corner, focus or color
   * check with an {@link UnprocessableEntityError} (422 DOCUMENT_REJECTED).
   */
  upload(params: DocumentUploadParams, options?: RequestOptions): APIPromise<Document> {
    return this.#sendForm('POST', documentEndpoints.uploadDocument.path, params, options);
  }

  /** Replaces a document's file and fields (the holder stays). A replaced document counts as new evidence. */
  replace(documentId: string, params: DocumentReplaceParams, options?: RequestOptions): APIPromise<Document> {
    let path: string;
    try {
      path = buildPath(documentEndpoints.replaceDocument.path, { documentId });
    } catch (error) {
      return failed(error);
    }
    return this.#sendForm('PUT', path, params, options);
  }

  /** Retrieves a document. An unknown id rejects with a {@link NotFoundError}. */
  retrieve(documentId: string, options?: RequestOptions): APIPromise<Document> {
    return this._client.call(documentEndpoints.getDocument, { params: { documentId } }, options);
  }

  /** Lists documents newest first, optionally of one holder; iterate with `for await` for every page. */
  list(query: DocumentListParams = {}, options?: RequestOptions): PagePromise<PageItemOf<typeof documentEndpoints.listDocuments>> {
    return this._client.callPage(documentEndpoints.listDocuments, { query }, options);
  }

  /** Deletes a document. Once submitted for verification it cannot be deleted ({@link ConflictError}): replace it. */
  delete(documentId: string, options?: RequestOptions): APIPromise<void> {
    return this._client.call(documentEndpoints.deleteDocument, { params: { documentId } }, options);
  }

  #sendForm(method: 'POST' | 'PUT', path: string, params: DocumentUploadParams | DocumentReplaceParams, options?: RequestOptions): APIPromise<Document> {
    // The form may need a file read first; the call's exchange is then the one of the request that follows.
    const raw: Promise<RawAPIResponse> = documentForm(params).then((body) =>
      this._client.request<Document>({ method, path, body }, options)._thenUnwrap((_data, exchange) => exchange));
    return new APIPromise<Document>(raw, async (exchange) => (await parseJsonBody(exchange.response)) as Document);
  }
}

const failed = (error: unknown): APIPromise<never> =>
  new APIPromise<never>(Promise.reject(error), async () => {
    throw error;
  });

const TEXT_FIELDS = ['documentHolder', 'documentType', 'country', 'side', 'documentNumber', 'issuingAuthority', 'issuedOn'] as const;

/** Builds the multipart form of an upload or replacement. */
export async function documentForm(params: DocumentUploadParams | DocumentReplaceParams): Promise<FormData> {
  const form = new FormData();
  const values = params as unknown as Record<string, unknown>;
  for (const name of TEXT_FIELDS) {
    const value = values[name];
    if (value !== undefined && value !== null) form.append(name, String(value));
  }
  const { blob, name } = await fileBlob(params.file, params.fileName);
  form.append('file', blob, name);
  return form;
}

const EXTENSIONS: Record<string, string> = { 'application/pdf': '.pdf', 'image/jpeg': '.jpg', 'image/png': '.png' };
const TYPES_BY_EXTENSION: Record<string, string> = { pdf: 'application/pdf', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png' };

/** The file as a Blob with a name and, where it can be told, a content type. */
async function fileBlob(file: DocumentFile, fileName: string | undefined): Promise<{ blob: Blob; name: string }> {
  let blob: Blob;
  let name = fileName;
  if (typeof file === 'string') {
    const bytes = await readPath(file);
    name ??= file.split(/[\\/]/).pop() || undefined;
    blob = new Blob([bytes as Uint8Array<ArrayBuffer>]);
  } else if (typeof Blob !== 'undefined' && file instanceof Blob) {
    blob = file;
    if (name === undefined && typeof File !== 'undefined' && file instanceof File && file.name !== '') name = file.name;
  } else if (file instanceof ArrayBuffer || ArrayBuffer.isView(file)) {
    blob = new Blob([file as Uint8Array<ArrayBuffer>]);
  } else {
    throw new RailyardError('`file` must be a Blob, a Uint8Array or Buffer, an ArrayBuffer, or (in Node) a file path.');
  }
  if (blob.type === '') {
    const type = TYPES_BY_EXTENSION[(name ?? '').split('.').pop()!.toLowerCase()] ?? sniff(new Uint8Array(await blob.slice(0, 8).arrayBuffer()));
    if (type !== undefined) blob = new Blob([blob], { type });
  }
  name ??= `document${EXTENSIONS[blob.type] ?? ''}`;
  return { blob, name };
}

/** The accepted type of the first bytes, if any (PDF, JPEG, PNG). */
function sniff(bytes: Uint8Array): string | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  return undefined;
}

/** Reads a file path in Node. The module name is not a literal, so browser bundlers never try to include it. */
async function readPath(path: string): Promise<Uint8Array> {
  const moduleName = 'node:fs/promises';
  let fs: { readFile(path: string): Promise<Uint8Array> };
  try {
    fs = (await import(/* @vite-ignore */ /* webpackIgnore: true */ moduleName)) as typeof fs;
  } catch {
    throw new RailyardError(`Cannot read ${JSON.stringify(path)}: file paths need Node; pass a Blob or the bytes instead.`);
  }
  try {
    return await fs.readFile(path);
  } catch (error) {
    throw new RailyardError(`Cannot read the document file ${JSON.stringify(path)}: ${(error as Error).message}`, { cause: error });
  }
}
