// codegen.yml names this module as a document transform of the console's documents. urql's
// cache adds `__typename` to every document it sends and refreshes cached queries by the types a
// mutation returns; the console sends its operations by id (persisted-documents.json), so the
// persisted documents must carry `__typename` themselves or no page refreshes after a save
// (test/console/inbound.test.ts, test/console/webhook.test.ts).
exports.transform = require('@graphql-codegen/client-preset').addTypenameSelectionDocumentTransform.transform;
