"""The address students use to reach this app: what the Link and the class's join box show.

The teacher's browser often says ``http://localhost:8501``, which no student's device can
open. In order of preference:

1. ``MCTS_LAB_PUBLIC_URL`` when set (a proxy's name, an https address): the teacher knows best;
2. the host the teacher's browser used, when it is not this machine's loopback;
3. this machine's LAN address with the browser's scheme and port.

Pure functions over strings (no Streamlit): the page passes the browser's URL in.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import urllib.parse

__all__ = ["ENV", "lan_address", "public_base"]

#: The setting that overrides the address (e.g. ``https://mcts.school.example``).
ENV = "MCTS_LAB_PUBLIC_URL"
_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", ""}


def _is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host in _LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def lan_address() -> str | None:
    """This machine's IPv4 address on its network (not loopback), or ``None``: the addresses
    its host name resolves to, then each network interface's (Linux)."""
    candidates: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        candidates += [str(info[4][0]) for info in infos]
    except OSError:
        pass
    candidates += _interface_addresses()
    for candidate in candidates:
        try:
            address = ipaddress.ip_address(candidate)
        except ValueError:
            continue
        if not (address.is_loopback or address.is_unspecified or address.is_link_local):
            return candidate
    return None


def _interface_addresses() -> list[str]:
    """Each interface's IPv4 address, asked of the kernel (Linux's SIOCGIFADDR); none
    elsewhere. Sends nothing on the network."""
    try:
        import fcntl
        import struct
    except ImportError:  # not Unix
        return []
    found = []
    try:
        interfaces = socket.if_nameindex()
    except OSError:
        return []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _, name in interfaces:
            try:
                packed = struct.pack("256s", name[:15].encode())
                reply = fcntl.ioctl(sock.fileno(), 0x8915, packed)  # SIOCGIFADDR
            except OSError:
                continue
            found.append(socket.inet_ntoa(reply[20:24]))
    return found


def public_base(browser_url: str | None, environ: dict[str, str] | None = None) -> str:
    """The base address (``scheme://host[:port]/``, no query) students can open, from the URL
    the teacher's browser shows (``None``: unknown) and the environment."""
    env = os.environ if environ is None else environ
    configured = env.get(ENV, "").strip()
    if configured:
        parts = urllib.parse.urlsplit(configured)
        if parts.scheme in ("http", "https") and parts.netloc:
            return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}/"
    parts = urllib.parse.urlsplit(browser_url or "http://localhost:8501/")
    scheme = parts.scheme if parts.scheme in ("http", "https") else "http"
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    path = parts.path.rstrip("/") + "/"
    if not _is_loopback(host):
        shown = f"[{host}]" if ":" in host else host
        return f"{scheme}://{shown}{port}{path}"
    lan = lan_address()
    return f"{scheme}://{lan or host}{port}{path}"
