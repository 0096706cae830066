/**
 * The store: one repository per aggregate over one Kysely database (SQLite or PostgreSQL).
 * Nothing above this folder writes SQL.
 */

import { ApiKeyRepository } from './api-keys.ts';
import { AssetRepository } from './assets.ts';
import { BatchRepository } from './batches.ts';
import { ConsoleRepository } from './console.ts';
import { type DatabaseHandle, type OpenDatabaseOptions, openDatabase } from './db.ts';
import { EmbedRepository } from './embeds.ts';
import { MetaRepository } from './meta.ts';
import { OAuthRepository } from './oauth.ts';
import { RenderHistoryRepository } from './render-history.ts';
import { RenderQueueRepository } from './render-queue.ts';
import { RenderRepository } from './renders.ts';
import { TemplateVersionRepository } from './template-versions.ts';
import { TemplateRepository } from './templates.ts';
import { ThumbnailRepository } from './thumbnails.ts';
import { UrlSecretRepository } from './url-secrets.ts';
import { UserRepository } from './users.ts';
import { WebhookRepository } from './webhooks.ts';
import { WorkspaceRepository } from './workspaces.ts';

export interface Store {
  handle: DatabaseHandle;
  workspaces: WorkspaceRepository;
  apiKeys: ApiKeyRepository;
  templates: TemplateRepository;
  templateVersions: TemplateVersionRepository;
  thumbnails: ThumbnailRepository;
  assets: AssetRepository;
  meta: MetaRepository;
  renders: RenderRepository;
  renderHistory: RenderHistoryRepository;
  renderQueue: RenderQueueRepository;
  batches: BatchRepository;
  embeds: EmbedRepository;
  webhooks: WebhookRepository;
  users: UserRepository;
  oauth: OAuthRepository;
  urlSecrets: UrlSecretRepository;
  console: ConsoleRepository;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export async function openStore(options: OpenDatabaseOptions): Promise<Store> {
  const handle = await openDatabase(options);
  const { db } = handle;
  return {
    handle,
    workspaces: new WorkspaceRepository(db),
    apiKeys: new ApiKeyRepository(db),
    templates: new TemplateRepository(db),
    templateVersions: new TemplateVersionRepository(db),
    thumbnails: new ThumbnailRepository(db),
    assets: new AssetRepository(db),
    meta: new MetaRepository(db),
    renders: new RenderRepository(db, handle.dialect),
    renderHistory: new RenderHistoryRepository(db),
    renderQueue: new RenderQueueRepository(db, handle.dialect),
    batches: new BatchRepository(db),
    embeds: new EmbedRepository(db),
    webhooks: new WebhookRepository(db, handle.dialect),
    users: new UserRepository(db),
    oauth: new OAuthRepository(db),
    urlSecrets: new UrlSecretRepository(db),
    console: new ConsoleRepository(db),
    ping: async () => {
      await db.selectFrom('platen_meta').select('key').limit(1).execute();
    },
    close: () => handle.close(),
  };
}

export type { DatabaseHandle, OpenDatabaseOptions } from './db.ts';
export { SQLITE_FILE } from './db.ts';
