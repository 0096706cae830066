/** Payloads of the embed routes and of the operator's embed configuration routes. */
import { z } from 'zod';

const hexColor = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'must be a hex colour such as #4f46e5');

/** https (or a data:image URI) only: the icon is shown inside customers' pages. */
const iconUrl = z
  .string()
  .max(8192)
  .refine((value) => /^https:\/\/[^\s]+$/i.test(value) || /^data:image\/[a-z0-9.+-]+[;,]/i.test(value), {
    error: 'must be an https URL or a data:image URI',
  });

export const embedSettingsSchema = z
  .object({
    brandTitle: z.string().trim().min(1).max(200),
    brandIconUrl: iconUrl,
    brandAccentColor: hexColor,
    enabled: z.boolean(),
    downloadsEnabled: z.boolean(),
    assetPickerEnabled: z.boolean(),
    smartResizeEnabled: z.boolean(),
    multiTenant: z.boolean(),
    sessionTtlSeconds: z.number().int().min(60).max(86_400),
    mintRequiresApiKey: z
      .boolean()
      .describe(
        "Require the customer's backend to authenticate the minting call with a workspace API key " +
          '(`Authorization: Bearer plt_…`): without it anyone who knows the embed id can mint a session for any userId.',
      ),
    publishedOnly: z
      .boolean()
      .describe(
        "Show the workspace's templates only as their latest published version, read-only; one never " +
          "published is not shown. End-users' own templates (multi-tenant) stay editable drafts.",
      ),
  })
  .strict();

export const createEmbedBody = embedSettingsSchema.partial().strict();
export const updateEmbedBody = embedSettingsSchema.partial().strict();

export const embedConfigSchema = embedSettingsSchema
  .extend({ id: z.string(), workspaceId: z.string(), createdAt: z.string(), updatedAt: z.string() })
  .meta({ id: 'EmbedConfig' });

export const publicEmbedInfoSchema = z
  .object({
    enabled: z.boolean(),
    brandTitle: z.string(),
    brandIconUrl: z.string(),
    brandAccentColor: z.string(),
    downloadsEnabled: z.boolean(),
    assetPickerEnabled: z.boolean(),
    smartResizeEnabled: z.boolean(),
    publishedOnly: z.boolean().describe("The workspace's templates show as published, read-only"),
  })
  .meta({ id: 'PublicEmbedInfo' });

export const sessionBody = z.object({ userId: z.string().trim().min(1).max(200).optional() }).strict();

export const embedSessionSchema = z
  .object({ token: z.string(), expiresAt: z.string() })
  .meta({ id: 'EmbedSession' });

export const embedParams = z.object({ embedId: z.string().max(200) });
export const embedTemplateParams = z.object({
  embedId: z.string().max(200),
  templateId: z.string().max(200),
});

export type EmbedSettingsInput = z.infer<typeof createEmbedBody>;
