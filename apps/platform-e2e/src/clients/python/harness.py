"""A minimal check runner for the client suites: each check is a named function; the runner prints
one JSON line per check ({"check", "ok", "error"?, "seconds"}) so the Jest spec can assert on every
call. Python runs here only as a client under test (firecrawl-py), never as part of the product."""

import json
import os
import sys
import time
import traceback
from typing import Callable, Dict, List, Tuple

CHECKS: Dict[str, List[Tuple[str, Callable[[], None]]]] = {}


def check(group: str, name: str):
    def register(fn: Callable[[], None]):
        CHECKS.setdefault(group, []).append((name, fn))
        return fn

    return register


def env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise SystemExit(f"{name} is not set")
    return value


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def expect_raises(fn: Callable[[], object], *fragments: str) -> str:
    """Runs fn, which must raise; every fragment must appear in the error text. Returns that text."""
    try:
        fn()
    except Exception as error:  # the SDKs raise their own error classes
        text = f"{type(error).__name__}: {error}"
        for fragment in fragments:
            expect(fragment in text, f"error {text!r} does not mention {fragment!r}")
        return text
    raise AssertionError("the call succeeded but an error was expected")


def run(group: str) -> None:
    checks = CHECKS.get(group)
    if not checks:
        raise SystemExit(f"unknown group {group}; known: {', '.join(CHECKS)}")
    for name, fn in checks:
        started = time.monotonic()
        try:
            fn()
            result = {"check": name, "ok": True}
        except Exception as error:
            result = {
                "check": name,
                "ok": False,
                "error": f"{type(error).__name__}: {error}"[:2000],
                "trace": traceback.format_exc()[-1500:],
            }
        result["seconds"] = round(time.monotonic() - started, 2)
        print(json.dumps(result), flush=True)


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit("usage: <suite>.py <group>")
    run(sys.argv[1])
