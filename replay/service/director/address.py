"""The address phones reach ``honba serve`` at: what every table link and QR code starts with.

A table link is built from this address, never from the ``Host`` a request names (a client chooses
that; a director on the server's own machine opens ``127.0.0.1``, which no phone reaches). It is,
in order: ``--public-url`` (``honba serve``, ``honba tournament seat``), the ``HONBA_PUBLIC_URL``
environment variable (set once for a venue: the server and every command then agree), else made
from where the server listens (``--host``, ``--port``): on every network (``0.0.0.0``) the machine's
address on the network it would reach the outside by, on one address that address. On loopback
alone (the default) phones cannot reach it, and ``served_address`` says so, with what to use.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Mapping
from typing import Final
from urllib.parse import urlsplit

import attrs

from domain.said import Said
from replay.input.parsing import InputError

PUBLIC_URL_ENV: Final = "HONBA_PUBLIC_URL"
EVERY_NETWORK: Final = ("0.0.0.0", "::", "")  # what --host takes to listen on every network


@attrs.frozen
class Address:
    """Where phones open the server: ``url`` (no slash at its end; None when nothing says), whether
    phones can reach it (``reachable``: not loopback), and what the server says of it at start."""

    url: str | None
    reachable: bool
    said: Said


def public_url(text: str) -> str:
    """A public URL as given (``https://honba.example.org``, ``http://192.168.1.20:8000/``), checked
    (http or https, a host, no query, no fragment) and without its slash at the end; else ``InputError``."""
    url = text.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or not parts.hostname:
        raise InputError(f"--public-url {text!r}: give the address phones open, e.g. https://honba.example.org")
    if parts.query or parts.fragment:
        raise InputError(f"--public-url {text!r}: the address alone, without ?query or #fragment")
    try:
        parts.port  # noqa: B018 (read to check it)
    except ValueError:
        raise InputError(f"--public-url {text!r}: its port is not a port") from None
    return url.rstrip("/")


def configured_public_url(given: str | None, environ: Mapping[str, str] | None = None) -> str | None:
    """The public URL given (``--public-url``), else ``HONBA_PUBLIC_URL``'s, checked; None when neither says."""
    env = os.environ if environ is None else environ
    text = given if given is not None else env.get(PUBLIC_URL_ENV)
    return public_url(text) if text else None


def served_address(host: str, port: int, given: str | None, environ: Mapping[str, str] | None = None) -> Address:
    """The address phones reach a server listening on ``host``:``port`` at (``given`` or
    ``HONBA_PUBLIC_URL`` first), and the line the server prints at start."""
    configured = configured_public_url(given, environ)
    loopback = _loopback(host)
    if configured is not None:
        said = Said(
            "phones open {url}/ (but this server listens on {host} only, which phones cannot reach: serve with"
            " --host 0.0.0.0 behind that address)"
            if loopback
            else "phones open {url}/",
            url=configured,
            host=host,
        )
        return Address(configured, not loopback, said)
    if loopback:
        example = f"http://{lan_address() or '192.168.1.20'}:{port}"
        return Address(
            f"http://{_host_in_url(host)}:{port}",
            False,
            Said(
                "phones cannot reach {host} (this machine only): serve with --host 0.0.0.0 and give the address "
                "phones open with --public-url (e.g. {example}) or {variable}",
                host=host,
                example=example,
                variable=PUBLIC_URL_ENV,
            ),
        )
    found = lan_address() if host in EVERY_NETWORK else host
    if found is None:
        return Address(
            None, True, Said("give the address phones open with --public-url or {variable}", variable=PUBLIC_URL_ENV)
        )
    url = f"http://{_host_in_url(found)}:{port}"
    return Address(url, True, Said("phones open {url}/ (another address? give it with --public-url)", url=url))


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _host_in_url(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def lan_address() -> str | None:
    """This machine's address on the network it would reach the outside by (a UDP socket
    "connected" to a documentation address: nothing is sent), or None without a network."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            found: str = probe.getsockname()[0]
    except OSError:
        return None
    return None if found.startswith("127.") or found == "0.0.0.0" else found
