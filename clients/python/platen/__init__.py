"""Platen's Python SDK: the machine API (`Platen`), the operator API (`PlatenAdmin`), signed
render URLs (`sign_render_url`) and webhook verification (`verify_webhook`).

Standard library only, Python 3.9 or newer. Records are plain dicts typed in `platen.types`.

    from platen import Platen
    platen = Platen(base_url="https://platen.example.com", api_key=os.environ["PLATEN_API_KEY"])
    result = platen.render("tpl_…", format="png", modifications={"headline": "Hello"})
"""
from __future__ import annotations

from ._version import __version__
from .admin import PlatenAdmin
from .client import Platen
from .errors import PlatenConnectionError, PlatenError, PlatenTimeoutError
from .signing import sign_render_url
from .webhooks import WebhookVerificationError, sign_webhook, verify_webhook

__all__ = [
    "Platen",
    "PlatenAdmin",
    "PlatenConnectionError",
    "PlatenError",
    "PlatenTimeoutError",
    "WebhookVerificationError",
    "__version__",
    "sign_render_url",
    "sign_webhook",
    "verify_webhook",
]
