/**
 * The TypeScript types of the OpenAPI document (openapi-typescript), exactly as committed in
 * clients/typescript/src/openapi.ts. `npm run openapi:types` writes them; test/openapi-client.test.ts
 * regenerates them from the running service and fails when the committed file is stale.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const TYPES_PATH = join(ROOT, 'clients/typescript/src/openapi.ts');

export async function openApiTypes(document: object): Promise<string> {
  const ast = await openapiTS(document as OpenAPI3);
  return `${COMMENT_HEADER}// Regenerate with \`npm run openapi:types\`; test/openapi-client.test.ts fails when stale.\n\n${astToString(ast)}`;
}
