/**
 * What the SDK's tests start from: the SDK's own clients against a real server (test/harness), a
 * workspace with credits and a key, one template, and the workspace's ledger as deltas. Also
 * `caught`, the error a promise rejects with, for asserting codes.
 */
import { simpleDocument } from '../../../test/fixtures/samples.ts';
import { ADMIN_TOKEN, type TestServer, workspaceWithKey } from '../../../test/harness/server.ts';
import { Platen, PlatenAdmin } from '../src/index.ts';

export async function sdkWorkspace(server: TestServer, credits = 10, document: object = simpleDocument()) {
  const admin = new PlatenAdmin({ baseUrl: server.base, adminToken: ADMIN_TOKEN });
  const { workspaceId, key } = await workspaceWithKey(server.base, { credits });
  const platen = new Platen({ baseUrl: server.base, apiKey: key });
  const template = await platen.templates.create({
    name: 't',
    document: document as Record<string, unknown>,
  });
  const ledger = async () => (await admin.ledger.list(workspaceId)).items.map((entry) => entry.delta);
  return { admin, platen, workspaceId, key, templateId: template.id, ledger };
}

export { withImage } from '../../../test/fixtures/samples.ts';

/** What `promise` rejects with; fails the test when it resolves. */
export async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, but the promise resolved');
}
