"""TLS for ``wss://`` lobbies, with the standard library's :mod:`ssl`.

The lobby serves TLS itself with a certificate and key in PEM files
(:func:`server_context`); a client verifies the lobby's certificate against
the system's trusted authorities, or against one ``cafile`` (a self-signed
authority on a LAN; see docs/online.md) (:func:`client_context`).
"""

from __future__ import annotations

import ssl
from pathlib import Path

from pegboard.errors import PegboardError


def server_context(cert: str | Path, key: str | Path) -> ssl.SSLContext:
    """A TLS 1.2+ server context; raises :class:`PegboardError` with one line when the files
    cannot be used."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(str(cert), str(key))
    except FileNotFoundError as exc:
        raise PegboardError(f"cannot read {exc.filename or cert}: no such file") from None
    except ssl.SSLError as exc:  # (before OSError: it is one)
        raise PegboardError(f"{cert} and {key} are not a PEM certificate and its private key ({exc.reason})") from None
    except OSError as exc:
        raise PegboardError(f"cannot read the certificate {cert} or its key {key}: {exc.strerror}") from None
    return context


def client_context(cafile: str | Path | None = None) -> ssl.SSLContext:
    """What a client trusts: the system's authorities, or only ``cafile`` when given."""
    try:
        return ssl.create_default_context(cafile=str(cafile) if cafile is not None else None)
    except FileNotFoundError:
        raise PegboardError(f"cannot read the certificate file {cafile}: no such file") from None
    except (OSError, ssl.SSLError) as exc:
        raise PegboardError(f"{cafile} is not a PEM certificate file ({exc})") from None
