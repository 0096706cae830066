/**
 * What the server holds, read through `@platen/client` only: the workspace's templates (with their
 * documents, for the ones asked for) and its assets. One listing each, then one read per template.
 */
import type { Asset, Platen, Template, TemplateWithDocument } from '@platen/client';

export interface RemoteState {
  /** Every template of the key's workspace, without documents, in the listing's order. */
  listed: Template[];
  /** The wanted templates, by id, with their documents. */
  templates: Map<string, TemplateWithDocument>;
  assets: Asset[];
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** `wanted` picks the templates whose documents are read: all of them, or those ids. */
export async function readRemote(platen: Platen, wanted: 'all' | ReadonlySet<string>): Promise<RemoteState> {
  const listed = await collect(platen.templates.all());
  const templates = new Map<string, TemplateWithDocument>();
  for (const { id } of listed) {
    if (wanted === 'all' || wanted.has(id)) templates.set(id, await platen.templates.get(id));
  }
  const assets = await collect(platen.assets.all());
  return { listed, templates, assets };
}
