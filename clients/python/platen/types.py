"""The API's records as TypedDicts (plain dicts at runtime), mirroring the OpenAPI schemas.

Field names are the API's own (camelCase), so a record reads exactly as docs/api.md and
`/openapi.json` describe it. Optional fields live in a `total=False` subclass of the required ones
(Python 3.9 has no `NotRequired`).
"""
from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

Format = Literal["png", "jpeg", "pdf", "mp4", "webm", "gif"]
Scope = Literal["template:read", "template:write", "render:write", "asset:read", "asset:write"]
WebhookEventType = Literal[
    "template.create", "template.update", "render.completed", "render.failed", "batch.completed"
]
RenderSource = Literal["api", "embed", "mcp", "url", "console", "other"]


class Credits(TypedDict):
    charged: int
    balanceAfter: int


class Template(TypedDict):
    id: str
    name: str
    width: int
    height: int
    pageCount: int
    revision: int
    shared: bool
    ownerUserId: Optional[str]
    thumbnailUrl: Optional[str]
    createdAt: str
    updatedAt: str


class TemplateWithDocument(Template):
    document: Dict[str, Any]


class TemplatePage(TypedDict):
    items: List[Template]
    nextCursor: Optional[str]


AssetKind = Literal["image", "font", "video", "audio"]


class TemplateVersion(TypedDict):
    """A published, immutable version of a template (docs/versions.md)."""

    templateId: str
    number: int
    note: Optional[str]
    width: int
    height: int
    pageCount: int
    draftRevision: int
    publishedBy: str
    createdAt: str


class TemplateVersionWithDocument(TemplateVersion):
    document: Dict[str, Any]


class TemplateVersionPage(TypedDict):
    items: List[TemplateVersion]
    nextCursor: Optional[str]


class TemplateDiff(TypedDict):
    """`from`/`to`: `{version, revision}` (version None: the draft); `changes`: add/remove/set/reorder."""

    changes: List[Dict[str, Any]]
    truncated: bool


class _AssetRequired(TypedDict):
    id: str
    kind: AssetKind
    mimeType: str
    byteSize: int
    url: str
    createdAt: str


class Asset(_AssetRequired, total=False):
    width: int
    height: int
    fontFamily: str
    # Videos and audio: what the upload's probe found.
    durationMs: int
    hasVideo: bool
    hasAudio: bool


class AssetPage(TypedDict):
    items: List[Asset]
    nextCursor: Optional[str]


class _RenderResultRequired(TypedDict):
    id: str
    templateId: str
    format: Format
    url: Optional[str]
    byteSize: int
    width: int
    height: int
    createdAt: str
    credits: Credits


class RenderResult(_RenderResultRequired, total=False):
    expired: bool
    # Video formats (mp4, webm, gif) only: the video's length in ms and its number of frames.
    durationMs: int
    frames: int


class RenderPages(TypedDict):
    """An `allPages` render to png or jpeg: one result per page."""

    pages: List[RenderResult]


RenderOutput = Union[RenderResult, RenderPages]


class _RenderErrorRequired(TypedDict):
    code: str


class RenderError(_RenderErrorRequired, total=False):
    details: Any


class _RenderJobRequired(TypedDict):
    id: str
    status: Literal["pending", "done", "failed"]
    templateId: str
    format: Format
    createdAt: str


class RenderJob(_RenderJobRequired, total=False):
    """A background render's state (the 202 answer, or `GET /v1/renders/{id}` before it is done)."""

    credits: Credits
    result: RenderOutput
    error: RenderError


class RenderSummary(TypedDict):
    id: str
    templateId: str
    status: Literal["pending", "done", "failed"]
    format: str
    files: int
    credits: int
    source: RenderSource
    url: Optional[str]
    errorCode: Optional[str]
    createdAt: str
    finishedAt: Optional[str]


class RenderPage(TypedDict):
    items: List[RenderSummary]
    nextCursor: Optional[str]


class UsageDay(TypedDict):
    day: str
    format: str
    source: RenderSource
    renders: int
    credits: int


class Usage(TypedDict):
    since: str
    days: List[UsageDay]


class BatchProgress(TypedDict):
    done: int
    failed: int
    pending: int


class _BatchRowRequired(TypedDict):
    row: int
    status: Literal["pending", "done", "failed"]
    renderId: Optional[str]


class BatchRow(_BatchRowRequired, total=False):
    url: Optional[str]
    urls: List[Optional[str]]
    error: RenderError


class Batch(TypedDict):
    id: str
    templateId: str
    format: str
    status: Literal["running", "completed", "cancelled"]
    total: int
    progress: BatchProgress
    createdAt: str
    finishedAt: Optional[str]
    rows: List[BatchRow]


class PublicEmbedInfo(TypedDict):
    enabled: bool
    brandTitle: str
    brandIconUrl: str
    brandAccentColor: str
    downloadsEnabled: bool
    assetPickerEnabled: bool
    smartResizeEnabled: bool
    publishedOnly: bool


class EmbedSession(TypedDict):
    token: str
    expiresAt: str


class EmbedConfig(PublicEmbedInfo):
    multiTenant: bool
    sessionTtlSeconds: int
    mintRequiresApiKey: bool
    id: str
    workspaceId: str
    createdAt: str
    updatedAt: str


class Workspace(TypedDict):
    id: str
    name: str
    creditBalance: int
    suspended: bool


class CreditBalance(TypedDict):
    creditBalance: int


class LedgerEntry(TypedDict):
    id: str
    workspaceId: str
    delta: int
    balanceAfter: int
    reason: str
    actor: str
    renderId: Optional[str]
    createdAt: str


class ApiKey(TypedDict):
    id: str
    name: str
    prefix: str
    scopes: List[Scope]
    createdAt: str
    revokedAt: Optional[str]
    lastUsedAt: Optional[str]


class NewApiKey(ApiKey):
    key: str


class Webhook(TypedDict):
    id: str
    workspaceId: str
    url: str
    events: List[WebhookEventType]
    createdAt: str
    updatedAt: str


class WebhookWithSecret(Webhook):
    secret: str


class WebhookDelivery(TypedDict):
    id: str
    messageId: str
    eventType: str
    attempt: int
    statusCode: Optional[int]
    ok: bool
    latencyMs: int
    error: Optional[str]
    createdAt: str


class Redelivery(TypedDict):
    queued: bool


class WebhookEvent(TypedDict):
    """A verified webhook body: `data` holds `template`, `render` or `batch` by `type`."""

    type: str
    timestamp: str
    data: Dict[str, Any]


class User(TypedDict):
    id: str
    email: str
    operator: bool
    disabled: bool
    workspaceIds: List[str]
    createdAt: str
    lastSignInAt: Optional[str]
    lockedUntil: Optional[str]


class OneTimeLink(TypedDict):
    url: str
    expiresAt: str


class UrlSigningSecret(TypedDict):
    id: str
    workspaceId: str
    name: str
    renderCap: Optional[int]
    renders: int
    createdAt: str
    rotatedAt: Optional[str]
    previousValidUntil: Optional[str]


class UrlSigningSecretWithKey(UrlSigningSecret):
    secret: str


class AuditActor(TypedDict):
    type: str
    id: Optional[str]
    label: str


class AuditEntry(TypedDict):
    id: str
    at: str
    actor: AuditActor
    action: str
    workspaceId: Optional[str]
    target: Optional[str]
    details: Any
    address: Optional[str]


class AuditLogPage(TypedDict):
    items: List[AuditEntry]
    nextCursor: Optional[str]
