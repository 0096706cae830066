"""Signed render URLs, signed exactly as the service verifies them (src/auth/url-signature.ts).

The canonical request is the path, `?`, and every `name=value` pair of the query except `sig`,
percent-encoded as JavaScript's `encodeURIComponent` does (spaces as `%20`), sorted and joined with
`&`; `sig` is the hex HMAC-SHA256 of it keyed with a `urlsec_…` secret. Byte for byte the URL the
service's own signer (`signUrl`) and @platen/client's `signRenderUrl` make (tests/test_signing.py).
"""
from __future__ import annotations

import hashlib
import hmac
import math
import urllib.parse
from datetime import datetime
from typing import Any, Dict, Mapping, Optional, Union

# encodeURIComponent leaves A-Z a-z 0-9 and - _ . ! ~ * ' ( ) as they are; quote() always keeps
# the letters, digits and - _ . ~, so these are the rest.
_URI_COMPONENT_SAFE = "!*'()"

# Options under their API names; the Python spellings of pageId and timeMs are accepted too.
_OPTION_NAMES = {"page_id": "pageId", "time_ms": "timeMs"}
_OPTIONS = ("pageId", "scale", "quality", "fps", "dither", "timeMs", "version")
# Query names the service reads as options or the signature, so no variable may take them.
RESERVED = frozenset([*_OPTIONS, "exp", "sig"])


def encode_uri_component(value: str) -> str:
    """JavaScript's `encodeURIComponent`: UTF-8, every byte but the unreserved marks escaped."""
    return urllib.parse.quote(value, safe=_URI_COMPONENT_SAFE, encoding="utf-8", errors="strict")


def js_string(value: Any) -> str:
    """`String(value)` as JavaScript writes it for the values a URL carries (2.0 is "2", True "true")."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and math.isfinite(value) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return str(value)


def _unix_seconds(expires_at: Union[datetime, int, float]) -> int:
    if isinstance(expires_at, datetime):
        # A naive datetime is local time, as datetime.timestamp() takes it; pass an aware one.
        return math.floor(expires_at.timestamp())
    return math.floor(expires_at)


def sign_render_url(
    *,
    base_url: str,
    template_id: str,
    secret: str,
    format: str = "png",
    variables: Optional[Mapping[str, Any]] = None,
    options: Optional[Mapping[str, Any]] = None,
    expires_at: Union[datetime, int, float, None] = None,
) -> str:
    """A URL that renders `template_id` with `variables` without any other credential.

    `options` takes `scale` (1-4), `quality` (1-100), `pageId`, and `fps`, `dither` (video formats:
    mp4, webm, gif) or `timeMs` (stills); `expires_at` (a datetime or Unix seconds) adds `exp`,
    after which the URL answers 403 URL_EXPIRED. Put the URL in an <img>, an og:image tag or an
    email; each distinct URL renders once and is then served from storage. ValueError for a variable
    named like an option (`pageId`, `scale`, `quality`, `fps`, `dither`, `timeMs`, `exp`, `sig`).
    """
    if not secret:
        raise ValueError("secret is required: a URL-signing secret (urlsec_…) of the template's workspace")
    path = f"/v1/templates/{encode_uri_component(template_id)}/image.{format}"
    params: Dict[str, str] = {}
    for name, value in (variables or {}).items():
        if name in RESERVED:
            raise ValueError(f'"{name}" is a render option, not a variable name, in a URL')
        params[str(name)] = js_string(value)
    for name, value in (options or {}).items():
        option = _OPTION_NAMES.get(name, name)
        if option not in _OPTIONS:
            raise ValueError(f'"{name}" is not a render option of a URL ({", ".join(_OPTIONS)})')
        if value is not None:
            params[option] = js_string(value)
    if expires_at is not None:
        params["exp"] = str(_unix_seconds(expires_at))
    # Sorted by code unit, as the service sorts; the pairs are ASCII once encoded.
    pairs = sorted(f"{encode_uri_component(k)}={encode_uri_component(v)}" for k, v in params.items())
    canonical = f"{path}?{'&'.join(pairs)}"
    signature = hmac.new(secret.encode("utf-8"), canonical.encode("utf-8"), hashlib.sha256).hexdigest()
    base = base_url.rstrip("/")
    return f"{base}{path}?{'&'.join([*pairs, f'sig={signature}'])}"
