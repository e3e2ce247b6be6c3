import { documentEndpoints as e } from '@railyard/contract';
import { bind } from '../http/app.js';
import * as documents from './documents.js';
import { readDocumentForm } from './form.js';

/** HTTP bindings of the document endpoints. Uploads read their own multipart body (the HTTP layer reads JSON only). */
export const documentRoutes = [
  bind(e.uploadDocument, async ({ tenant, request }) => documents.uploadDocument(tenant, await readDocumentForm(request))),
  bind(e.listDocuments, ({ tenant, query }) => documents.listDocuments(tenant, query)),
  bind(e.getDocument, ({ tenant, params }) => documents.retrieveDocument(tenant, params.documentId)),
  bind(e.replaceDocument, async ({ tenant, params, request }) => {
    documents.findDocument(tenant, params.documentId); // 404 before reading an upload that would be thrown away
    return documents.replaceDocument(tenant, params.documentId, await readDocumentForm(request));
  }),
  bind(e.deleteDocument, ({ tenant, params }) => documents.deleteDocument(tenant, params.documentId)),
];
