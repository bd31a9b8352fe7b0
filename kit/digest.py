"""``blake2b``: the digest of sylla's caches (parse tables, regex programs, known-valid
instructions), without loading OpenSSL.

``hashlib.blake2b`` is CPython's own ``_blake2.blake2b`` (hashlib never takes BLAKE2 from
OpenSSL), but ``import hashlib`` loads OpenSSL's libcrypto for its other algorithms: a third of
a bare ``python -c pass`` in instructions, paid by every ``sylla lint`` (issue 24 item 2).
"""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # a Python built without it: hashlib's, the same function
    from hashlib import blake2b

__all__ = ["blake2b"]
