"""Which client method covers each operationId of the service's OpenAPI document.

`OPERATIONS` maps an operationId to a dotted path: on `PlatenAdmin` when it starts with `admin.`,
else on `Platen`. `EXCLUDED` lists the operations the SDK leaves out on purpose, each with why.
tests/test_coverage.py fetches `/openapi.json` from a running service and fails on any operation in
neither table, on any table entry the document no longer has, and on any path that does not
resolve to a callable of a real client.
"""
from __future__ import annotations

from typing import Dict

OPERATIONS: Dict[str, str] = {
    # Templates
    "listTemplates": "templates.list",
    "createTemplate": "templates.create",
    "getTemplate": "templates.get",
    "saveTemplate": "templates.save",
    "updateTemplateMetadata": "templates.update",
    "deleteTemplate": "templates.delete",
    "publishTemplateVersion": "templates.publish",
    "listTemplateVersions": "templates.versions",
    "getTemplateVersion": "templates.version",
    "rollbackTemplate": "templates.rollback",
    "diffTemplate": "templates.diff",
    "diffTemplateImage": "templates.diff_image",
    "getTemplateVariables": "templates.variables",
    "previewTemplate": "templates.preview",
    "preflightTemplate": "templates.preflight",
    # Assets
    "listAssets": "assets.list",
    "uploadAsset": "assets.upload",
    "uploadAssetFromUrl": "assets.upload_from_url",
    "getAsset": "assets.get",
    "deleteAsset": "assets.delete",
    # Renders (render_async and render_and_wait use renderTemplate too)
    "renderTemplate": "render",
    "getRender": "renders.get",
    "listRenders": "renders.list",
    "getUsage": "usage",
    "estimateCredits": "renders.estimate",
    "signRenderUrl": "renders.signed_url",
    # Batches
    "createBatch": "batches.create",
    "createBatchFromCsv": "batches.create_from_csv",
    "getBatch": "batches.get",
    "cancelBatch": "batches.cancel",
    "downloadBatchZip": "batches.download_zip",
    # Embeds: what the customer's backend calls
    "getEmbedInfo": "embeds.info",
    "createEmbedSession": "embeds.create_session",
    # Operator API
    "createWorkspace": "admin.workspaces.create",
    "listWorkspaces": "admin.workspaces.list",
    "getWorkspace": "admin.workspaces.get",
    "updateWorkspace": "admin.workspaces.update",
    "adjustCredits": "admin.credits.adjust",
    "getLedger": "admin.ledger.list",
    "createApiKey": "admin.api_keys.create",
    "listApiKeys": "admin.api_keys.list",
    "revokeApiKey": "admin.api_keys.revoke",
    "createUrlSigningSecret": "admin.url_signing_secrets.create",
    "listUrlSigningSecrets": "admin.url_signing_secrets.list",
    "updateUrlSigningSecret": "admin.url_signing_secrets.update",
    "revokeUrlSigningSecret": "admin.url_signing_secrets.revoke",
    "rotateUrlSigningSecret": "admin.url_signing_secrets.rotate",
    "createEmbed": "admin.embeds.create",
    "listEmbeds": "admin.embeds.list",
    "getEmbed": "admin.embeds.get",
    "updateEmbed": "admin.embeds.update",
    "deleteEmbed": "admin.embeds.delete",
    "createWebhook": "admin.webhooks.create",
    "listWebhooks": "admin.webhooks.list",
    "getWebhook": "admin.webhooks.get",
    "updateWebhook": "admin.webhooks.update",
    "deleteWebhook": "admin.webhooks.delete",
    "rotateWebhookSecret": "admin.webhooks.rotate_secret",
    "listWebhookDeliveries": "admin.webhooks.deliveries",
    "redeliverWebhookMessage": "admin.webhooks.redeliver",
    "createUser": "admin.users.create",
    "listUsers": "admin.users.list",
    "getUser": "admin.users.get",
    "updateUser": "admin.users.update",
    "deleteUser": "admin.users.delete",
    "createPasswordResetLink": "admin.users.password_reset",
    "unlockUser": "admin.users.unlock",
    "createSetupLink": "admin.users.setup_link",
    "listAuditLog": "admin.audit_log.list",
}

_STUDIO = (
    "studio-only: the embedded studio calls it from the end-user's browser with an embed session "
    "token; a backend holding an API key uses the templates, assets and render methods instead"
)

_SIGNED_URL = (
    "a URL, not a call: sign_render_url() (or Platen.sign_render_url) builds it for an <img>, an "
    "og:image tag or an email, and whoever shows it makes the GET"
)

EXCLUDED: Dict[str, str] = {
    "getMetrics": "Prometheus scrapes it, in its own text format, from every instance",
    "renderTemplateBySignedUrlPng": _SIGNED_URL,
    "renderTemplateBySignedUrlJpeg": _SIGNED_URL,
    "renderTemplateBySignedUrlPdf": _SIGNED_URL,
    "renderTemplateBySignedUrlMp4": _SIGNED_URL,
    "renderTemplateBySignedUrlWebm": _SIGNED_URL,
    "renderTemplateBySignedUrlGif": _SIGNED_URL,
    "listEmbedTemplates": _STUDIO,
    "createEmbedTemplate": _STUDIO,
    "getEmbedTemplate": _STUDIO,
    "saveEmbedTemplate": _STUDIO,
    "renderEmbedTemplate": _STUDIO,
    "listEmbedAssets": _STUDIO,
    "uploadEmbedAsset": _STUDIO,
    "getEmbedImage": _STUDIO + " (it draws a design's images on the studio's canvas)",
    "listEmbedFonts": _STUDIO + " (it loads the workspace's fonts into the studio)",
    "listEmbedTemplateVersions": _STUDIO + " (its history panel)",
    "preflightEmbedTemplate": _STUDIO + " (its live warnings)",
    "publishEmbedTemplateVersion": _STUDIO + " (its history panel)",
    "getEmbedTemplateVersion": _STUDIO + " (its history panel)",
    "rollbackEmbedTemplate": _STUDIO + " (its history panel)",
    "diffEmbedTemplate": _STUDIO + " (its history panel)",
    "diffEmbedTemplateImage": _STUDIO + " (its history panel)",
}
