"""Verifying webhook deliveries: Standard Webhooks (https://www.standardwebhooks.com), as signed by
src/webhooks/signing.ts and checked by the `standardwebhooks` libraries.

The secret is `whsec_` + base64 of the HMAC key. Each delivery carries `webhook-id`,
`webhook-timestamp` (Unix seconds of the attempt) and `webhook-signature`: one or more
space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. A delivery verifies when the
timestamp is within five minutes of now and any `v1` signature matches (compared in constant time).
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Iterable, Mapping, Optional, Tuple, Union, cast

from .types import WebhookEvent

SECRET_PREFIX = "whsec_"
TOLERANCE_SECONDS = 5 * 60


class WebhookVerificationError(Exception):
    """The delivery is not authentic (or not fresh): answer it with 400 and ignore it."""


def _key(secret: Union[str, bytes]) -> bytes:
    if isinstance(secret, bytes):
        return secret
    encoded = secret[len(SECRET_PREFIX):] if secret.startswith(SECRET_PREFIX) else secret
    try:
        key = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError) as error:
        raise ValueError("the webhook secret is not whsec_ followed by base64") from error
    if not key:
        raise ValueError("the webhook secret is empty")
    return key


def _header(headers: Any, name: str) -> Optional[str]:
    items = headers.items() if hasattr(headers, "items") else headers
    for key, value in items:
        if str(key).lower() == name:
            return str(value)
    return None


def sign_webhook(secret: Union[str, bytes], message_id: str, timestamp: int, body: Union[bytes, str]) -> str:
    """`v1,<base64 signature>` of one delivery (what the service sends; handy in tests)."""
    raw = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    content = f"{message_id}.{timestamp}.".encode("utf-8") + raw
    digest = hmac.new(_key(secret), content, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def verify_webhook(
    secret: Union[str, bytes],
    headers: Union[Mapping[str, str], Iterable[Tuple[str, str]]],
    body: Union[bytes, str],
    *,
    tolerance: int = TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> WebhookEvent:
    """The parsed event of an authentic delivery; WebhookVerificationError otherwise.

    `headers` is any mapping (or list of pairs) of the request's headers, names in any case;
    `body` is the raw body exactly as received (bytes; parse nothing before verifying).
    A `secret` that is no `whsec_…` value raises ValueError.
    """
    key = _key(secret)
    message_id = _header(headers, "webhook-id")
    timestamp_header = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not message_id or not timestamp_header or not signatures:
        raise WebhookVerificationError("Missing required headers")
    try:
        timestamp = int(timestamp_header.strip())
    except ValueError:
        raise WebhookVerificationError("Invalid Signature Headers") from None
    current = int(time.time() if now is None else now)
    if current - timestamp > tolerance:
        raise WebhookVerificationError("Message timestamp too old")
    if timestamp > current + tolerance:
        raise WebhookVerificationError("Message timestamp too new")
    expected = sign_webhook(key, message_id, timestamp, body).split(",", 1)[1].encode("ascii")
    matched = False
    for versioned in signatures.split(" "):
        version, _, signature = versioned.partition(",")
        if version != "v1":
            continue
        # Every candidate is compared, so the time taken does not say which one matched.
        if hmac.compare_digest(signature.encode("utf-8", "replace"), expected):
            matched = True
    if not matched:
        raise WebhookVerificationError("No matching signature found")
    try:
        event = json.loads(body.decode("utf-8") if isinstance(body, (bytes, bytearray)) else body)
    except ValueError:  # UnicodeDecodeError included
        raise WebhookVerificationError("The body is not JSON") from None
    if not isinstance(event, dict):
        raise WebhookVerificationError("The body is not a JSON object")
    return cast(WebhookEvent, event)
