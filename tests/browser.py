"""Headless Chromium for the tests that render honba's HTML pages (installed by .ci/run when missing)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


def chromium() -> str | None:
    """The Chromium binary on PATH, if any."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def run_chromium(browser: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run headless Chromium with a fresh profile and no network chatter; it must succeed."""
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        *args,
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    return result


SYSTEM_CHROMIUM = Path("/usr/bin/chromium")


def playwright_args() -> list[str]:
    """The arguments honba's browser tests launch the system's Chromium with (Playwright's own
    browser downloads are never used; ``--no-sandbox`` only as root)."""
    import os

    args = ["--headless", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
    args += ["--no-first-run", "--disable-sync"]
    if os.geteuid() == 0:
        args.append("--no-sandbox")
    return args
