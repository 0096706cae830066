"""`platen.embeds`: what a customer's backend does for an embedded studio.

`info` reads an embed's public branding and toggles; `create_session` mints a short-lived session
token for one end-user, to hand to the studio in their browser. The client's API key goes along,
which an embed with `mintRequiresApiKey` requires (and others ignore). The session routes the
studio then calls are the studio's own, not this SDK's (see _operations.py).
"""
from __future__ import annotations

from typing import Optional, cast

from ._transport import Transport, segment
from ._util import compact
from .types import EmbedSession, PublicEmbedInfo


class Embeds:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def info(self, embed_id: str) -> PublicEmbedInfo:
        """Public info: branding and toggles; a disabled embed answers with `enabled: False`."""
        return cast(PublicEmbedInfo, self._transport.call("GET", f"/v1/embed/{segment(embed_id)}"))

    def create_session(self, embed_id: str, user_id: Optional[str] = None) -> EmbedSession:
        """`{token, expiresAt}` for the end-user `user_id` (required by a multi-tenant embed)."""
        path = f"/v1/embed/{segment(embed_id)}/session"
        return cast(EmbedSession, self._transport.call("POST", path, json_body=compact(userId=user_id)))
