"""The SDK's version: sent in every request's User-Agent (`platen-python/<version>`)."""
from __future__ import annotations

__version__ = "0.1.0"
