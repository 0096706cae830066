"""The Python SDK's tests, against a real Platen service (tests/service.py) over loopback HTTP.

Run from the repository root, after `npm run build`:

    PYTHONPATH=clients/python python3 -m unittest discover -s clients/python/tests -t clients/python -v

Discovery goes through `load_tests` below, which holds the service for the whole run, so it starts
once rather than once per module.
"""
from __future__ import annotations

import os
import unittest
from typing import Any, Optional

from . import service


class _SharedServiceSuite(unittest.TestSuite):
    def run(self, result: Any, debug: bool = False) -> Any:  # type: ignore[override]
        try:
            service.acquire()
        except Exception:
            # Every module's setUpModule acquires it again and reports the same failure.
            return super().run(result, debug)
        try:
            return super().run(result, debug)
        finally:
            service.release()


def load_tests(
    loader: unittest.TestLoader, standard_tests: unittest.TestSuite, pattern: Optional[str]
) -> Any:
    suite = _SharedServiceSuite()
    suite.addTests(standard_tests)
    suite.addTests(loader.discover(start_dir=os.path.dirname(__file__), pattern=pattern or "test*.py"))
    return suite
