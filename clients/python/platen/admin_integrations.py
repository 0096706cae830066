"""The operator API's integration routes: a workspace's embeds, webhooks and URL-signing secrets
(`PlatenAdmin.embeds`, `.webhooks`, `.url_signing_secrets`).

Secrets (`whsec_…`, `urlsec_…`) are in the answer of the call that creates or rotates them only.
Keyword arguments are snake_case; the records returned keep the API's camelCase names.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, cast

from ._transport import Transport, segment
from ._util import compact
from .types import (
    EmbedConfig,
    Redelivery,
    UrlSigningSecret,
    UrlSigningSecretWithKey,
    Webhook,
    WebhookDelivery,
    WebhookWithSecret,
)


def _embed_fields(
    brand_title: Optional[str],
    brand_icon_url: Optional[str],
    brand_accent_color: Optional[str],
    enabled: Optional[bool],
    downloads_enabled: Optional[bool],
    asset_picker_enabled: Optional[bool],
    smart_resize_enabled: Optional[bool],
    multi_tenant: Optional[bool],
    session_ttl_seconds: Optional[int],
    mint_requires_api_key: Optional[bool],
    published_only: Optional[bool] = None,
) -> Dict[str, Any]:
    return compact(
        brandTitle=brand_title,
        brandIconUrl=brand_icon_url,
        brandAccentColor=brand_accent_color,
        enabled=enabled,
        downloadsEnabled=downloads_enabled,
        assetPickerEnabled=asset_picker_enabled,
        smartResizeEnabled=smart_resize_enabled,
        multiTenant=multi_tenant,
        sessionTtlSeconds=session_ttl_seconds,
        mintRequiresApiKey=mint_requires_api_key,
        publishedOnly=published_only,
    )


class AdminEmbeds:
    """Embeds: the configuration behind one embedded studio (branding, toggles, tenancy)."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def create(
        self,
        workspace_id: str,
        *,
        brand_title: Optional[str] = None,
        brand_icon_url: Optional[str] = None,
        brand_accent_color: Optional[str] = None,
        enabled: Optional[bool] = None,
        downloads_enabled: Optional[bool] = None,
        asset_picker_enabled: Optional[bool] = None,
        smart_resize_enabled: Optional[bool] = None,
        multi_tenant: Optional[bool] = None,
        session_ttl_seconds: Optional[int] = None,
        mint_requires_api_key: Optional[bool] = None,
        published_only: Optional[bool] = None,
    ) -> EmbedConfig:
        """A new embed; unset fields take the defaults (on, multi-tenant, 3600 s, no key to mint)."""
        body = _embed_fields(
            brand_title, brand_icon_url, brand_accent_color, enabled, downloads_enabled,
            asset_picker_enabled, smart_resize_enabled, multi_tenant, session_ttl_seconds,
            mint_requires_api_key, published_only,
        )  # fmt: skip
        path = f"/admin/v1/workspaces/{segment(workspace_id)}/embeds"
        return cast(EmbedConfig, self._transport.call("POST", path, json_body=body))

    def list(self, workspace_id: str) -> List[EmbedConfig]:
        path = f"/admin/v1/workspaces/{segment(workspace_id)}/embeds"
        return cast(List[EmbedConfig], self._transport.call("GET", path)["items"])

    def get(self, embed_id: str) -> EmbedConfig:
        return cast(EmbedConfig, self._transport.call("GET", f"/admin/v1/embeds/{segment(embed_id)}"))

    def update(
        self,
        embed_id: str,
        *,
        brand_title: Optional[str] = None,
        brand_icon_url: Optional[str] = None,
        brand_accent_color: Optional[str] = None,
        enabled: Optional[bool] = None,
        downloads_enabled: Optional[bool] = None,
        asset_picker_enabled: Optional[bool] = None,
        smart_resize_enabled: Optional[bool] = None,
        multi_tenant: Optional[bool] = None,
        session_ttl_seconds: Optional[int] = None,
        mint_requires_api_key: Optional[bool] = None,
        published_only: Optional[bool] = None,
    ) -> EmbedConfig:
        """Changes the given fields; toggles take effect at every session's next request."""
        body = _embed_fields(
            brand_title, brand_icon_url, brand_accent_color, enabled, downloads_enabled,
            asset_picker_enabled, smart_resize_enabled, multi_tenant, session_ttl_seconds,
            mint_requires_api_key, published_only,
        )  # fmt: skip
        path = f"/admin/v1/embeds/{segment(embed_id)}"
        return cast(EmbedConfig, self._transport.call("PATCH", path, json_body=body))

    def delete(self, embed_id: str) -> None:
        """Deletes the embed; its sessions stop working at once."""
        self._transport.call("DELETE", f"/admin/v1/embeds/{segment(embed_id)}")


class AdminWebhooks:
    """Webhooks: a URL subscribed to a workspace's events, with its delivery log."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def create(self, workspace_id: str, url: str, events: Sequence[str]) -> WebhookWithSecret:
        """Subscribes `url` to `events`; the answer's `secret` (`whsec_…`) is shown this once."""
        path = f"/admin/v1/workspaces/{segment(workspace_id)}/webhooks"
        body = {"url": url, "events": list(events)}
        return cast(WebhookWithSecret, self._transport.call("POST", path, json_body=body))

    def list(self, workspace_id: str) -> List[Webhook]:
        path = f"/admin/v1/workspaces/{segment(workspace_id)}/webhooks"
        return cast(List[Webhook], self._transport.call("GET", path)["items"])

    def get(self, webhook_id: str) -> Webhook:
        return cast(Webhook, self._transport.call("GET", f"/admin/v1/webhooks/{segment(webhook_id)}"))

    def update(
        self, webhook_id: str, url: Optional[str] = None, events: Optional[Sequence[str]] = None
    ) -> Webhook:
        body = compact(url=url, events=list(events) if events is not None else None)
        path = f"/admin/v1/webhooks/{segment(webhook_id)}"
        return cast(Webhook, self._transport.call("PATCH", path, json_body=body))

    def delete(self, webhook_id: str) -> None:
        self._transport.call("DELETE", f"/admin/v1/webhooks/{segment(webhook_id)}")

    def rotate_secret(self, webhook_id: str) -> WebhookWithSecret:
        """A new signing secret, shown this once; the old one stops signing at once."""
        path = f"/admin/v1/webhooks/{segment(webhook_id)}/rotate-secret"
        return cast(WebhookWithSecret, self._transport.call("POST", path))

    def deliveries(self, webhook_id: str, limit: Optional[int] = None) -> List[WebhookDelivery]:
        """The latest delivery attempts, newest first (`limit` at most 100, default 50)."""
        path = f"/admin/v1/webhooks/{segment(webhook_id)}/deliveries"
        answer = self._transport.call("GET", path, query=compact(limit=limit))
        return cast(List[WebhookDelivery], answer["items"])

    def redeliver(self, webhook_id: str, message_id: str) -> Redelivery:
        """Sends a message (a delivery's `messageId`) again now, same `webhook-id`, current secret."""
        path = f"/admin/v1/webhooks/{segment(webhook_id)}/messages/{segment(message_id)}/redeliver"
        return cast(Redelivery, self._transport.call("POST", path))


class UrlSigningSecrets:
    """URL-signing secrets (`urlsec_…`): the keys signed render URLs are signed with."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def create(
        self, workspace_id: str, name: Optional[str] = None, render_cap: Optional[int] = None
    ) -> UrlSigningSecretWithKey:
        """A new secret; the answer's `secret` is shown this once. `render_cap` bounds its renders."""
        path = f"/admin/v1/workspaces/{segment(workspace_id)}/url-signing-secrets"
        body = compact(name=name, renderCap=render_cap)
        return cast(UrlSigningSecretWithKey, self._transport.call("POST", path, json_body=body))

    def list(self, workspace_id: str) -> List[UrlSigningSecret]:
        path = f"/admin/v1/workspaces/{segment(workspace_id)}/url-signing-secrets"
        return cast(List[UrlSigningSecret], self._transport.call("GET", path)["items"])

    def update(self, secret_id: str, render_cap: Optional[int]) -> UrlSigningSecret:
        """Sets the render cap (None: no cap)."""
        path = f"/admin/v1/url-signing-secrets/{segment(secret_id)}"
        answer = self._transport.call("PATCH", path, json_body={"renderCap": render_cap})
        return cast(UrlSigningSecret, answer)

    def rotate(self, secret_id: str) -> UrlSigningSecretWithKey:
        """A new key, shown this once; the old one still verifies until `previousValidUntil`."""
        path = f"/admin/v1/url-signing-secrets/{segment(secret_id)}/rotate"
        return cast(UrlSigningSecretWithKey, self._transport.call("POST", path))

    def revoke(self, secret_id: str) -> None:
        """Revokes the secret: no URL it signed verifies any more."""
        self._transport.call("DELETE", f"/admin/v1/url-signing-secrets/{segment(secret_id)}")
