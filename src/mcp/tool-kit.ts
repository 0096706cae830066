/** What every MCP tool shares: the services it calls, its definition, and argument parsing. */
import { z } from 'zod';
import type { AssetService } from '../assets/index.ts';
import type { Principal, Scope } from '../auth/index.ts';
import type { BatchService } from '../batches/index.ts';
import { AppError } from '../core/errors.ts';
import type { FileStore } from '../files/index.ts';
import type { PreflightService } from '../preflight/index.ts';
import type { RateLimiter } from '../ratelimit/index.ts';
import type { RenderUrlService } from '../render-urls/index.ts';
import type { BackgroundRenders, RenderService } from '../renders/index.ts';
import type { TemplateService } from '../templates/index.ts';
import type { TemplateVersionService } from '../versions/index.ts';
import type { WorkspaceService } from '../workspaces/service.ts';

export interface ToolServices {
  templates: TemplateService;
  templateVersions: TemplateVersionService;
  assets: AssetService;
  renders: RenderService;
  renderUrls: RenderUrlService;
  preflight: PreflightService;
  background: BackgroundRenders;
  batches: BatchService;
  workspaces: WorkspaceService;
  files: FileStore;
  limiter: RateLimiter | null;
  baseUrl: string;
}

export type ToolContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** The scope the tool needs; null: any valid token of the workspace. */
  scope: Scope | null;
  /** What tools/list shows, as JSON Schema; `call` parses its arguments with its own schemas. */
  inputSchema: z.ZodRawShape;
  /** Shown in tools/list as the tool's `_meta`: the MCP App it declares (src/mcp/app). */
  _meta?: Record<string, unknown>;
  call(principal: Principal, args: Record<string, unknown>, services: ToolServices): Promise<ToolContent[]>;
}

export const templateId = z.string().min(1).max(200).describe('A template id (`tpl_…`)');
export const json = (value: unknown): ToolContent => ({ type: 'text', text: JSON.stringify(value) });

export function parsed<T extends z.ZodType>(schema: T, args: unknown): z.infer<T> {
  const result = schema.safeParse(args);
  if (result.success) return result.data;
  throw new AppError(
    'VALIDATION_FAILED',
    undefined,
    result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  );
}
