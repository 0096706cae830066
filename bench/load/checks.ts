/**
 * What must hold after a soak or chaos run, read from the store and the file store themselves:
 * every acknowledged render and template is there (and each render's files), the ledger adds up to
 * the balance and matches the charged renders one for one, no render is pending, every webhook
 * message was delivered and the receiver saw each one, and no stored file is left without a record.
 */
import type { FileStore } from '../../src/files/index.ts';
import type { Store } from '../../src/store/index.ts';
import type { Acknowledged } from './mix.ts';

export interface Finding {
  check: string;
  ok: boolean;
  detail: string;
}

export async function checkConsistency(input: {
  store: Store;
  files: FileStore;
  workspaceId: string;
  acked: Acknowledged;
  /** Verified, accepted webhook requests the receiver got: message id → body. */
  received: Map<string, string>;
}): Promise<Finding[]> {
  const { store, files, workspaceId, acked } = input;
  const db = store.handle.db;
  const findings: Finding[] = [];
  const add = (check: string, ok: boolean, detail: string) => findings.push({ check, ok, detail });

  const outputs = await db.selectFrom('render_outputs').select(['id', 'render_id', 'file_key']).execute();
  const outputIds = new Set(outputs.map((o) => o.id));
  const missingRenders = [...acked.renders.keys()].filter((id) => !outputIds.has(id));
  add(
    'acknowledged renders recorded',
    missingRenders.length === 0,
    `${acked.renders.size} acknowledged, ${missingRenders.length} missing`,
  );

  const templates = new Set((await db.selectFrom('templates').select('id').execute()).map((t) => t.id));
  const missingTemplates = [...acked.templates].filter((id) => !templates.has(id));
  add(
    'acknowledged templates recorded',
    missingTemplates.length === 0,
    `${acked.templates.size} acknowledged, ${missingTemplates.length} missing`,
  );

  const pending = await db.selectFrom('renders').select('id').where('status', '=', 'pending').execute();
  add('no render pending', pending.length === 0, `${pending.length} pending`);

  const ledger = await db
    .selectFrom('credit_ledger')
    .select(['delta', 'render_id', 'reason'])
    .where('workspace_id', '=', workspaceId)
    .execute();
  const sum = ledger.reduce((total, entry) => total + Number(entry.delta), 0);
  const workspace = await store.workspaces.get(workspaceId);
  add(
    'ledger adds up to the balance',
    sum === workspace?.creditBalance,
    `ledger ${sum}, balance ${workspace?.creditBalance}`,
  );
  const net = new Map<string, number>();
  for (const entry of ledger)
    if (entry.render_id) net.set(entry.render_id, (net.get(entry.render_id) ?? 0) + Number(entry.delta));
  const done = await db
    .selectFrom('renders')
    .select(['id', 'file_count'])
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'done')
    .execute();
  const mischarged = done.filter((r) => (net.get(r.id) ?? 0) !== -Number(r.file_count));
  const chargedWithoutRender = [...net].filter(
    ([id, delta]) => delta !== 0 && !done.some((r) => r.id === id),
  );
  add(
    'each done render charged once, nothing charged without a render',
    mischarged.length === 0 && chargedWithoutRender.length === 0,
    `${done.length} done renders, ${mischarged.length} mischarged, ${chargedWithoutRender.length} charges without a render`,
  );
  const ackedCharges = [...acked.renders.values()].filter((r) => r.charged > 0).length;
  add(
    'every charged answer is a done render',
    ackedCharges <= done.length,
    `${ackedCharges} charged answers, ${done.length} done renders`,
  );

  const outbox = await db.selectFrom('webhook_outbox').select(['id', 'status']).execute();
  const undelivered = outbox.filter((row) => row.status !== 'delivered');
  const unseen = outbox.filter((row) => !input.received.has(row.id));
  add(
    'every webhook message delivered',
    undelivered.length === 0,
    `${outbox.length} messages, ${undelivered.length} not delivered`,
  );
  add('the receiver saw every message', unseen.length === 0, `${unseen.length} never received`);
  const created = new Set<string>();
  for (const body of input.received.values()) {
    const event = JSON.parse(body) as { type: string; data: { template: { id: string } } };
    if (event.type === 'template.create') created.add(event.data.template.id);
  }
  const silent = [...acked.templates].filter((id) => !created.has(id));
  add(
    'each acknowledged template reached the receiver as an event',
    silent.length === 0,
    `${silent.length} without their event`,
  );

  const keys = new Set<string>();
  for await (const file of files.list('')) keys.add(file.key);
  const lostFiles = outputs.filter((o) => !keys.has(o.file_key));
  add(
    'every render output has its file',
    lostFiles.length === 0,
    `${outputs.length} outputs, ${lostFiles.length} files missing`,
  );
  const referenced = new Set(outputs.map((o) => o.file_key));
  for (const row of await db.selectFrom('assets').select('file_key').execute()) referenced.add(row.file_key);
  for (const row of await db.selectFrom('templates').select('thumbnail_key').execute())
    if (row.thumbnail_key) referenced.add(row.thumbnail_key);
  const strays = [...keys].filter((key) => !referenced.has(key));
  add(
    'no stored file without a record',
    strays.length === 0,
    `${keys.size} files, ${strays.length} unreferenced`,
  );
  return findings;
}
