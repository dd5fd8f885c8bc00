"""Join codes, the teacher's secret and students' nicknames.

A join code is read off a projector and typed on a phone, so its alphabet has no look-alikes
(no 0/O, 1/I/L) and case does not matter. Six characters of 31 give 29.7 bits; the room also
limits join attempts per browser (:data:`app.classroom.core.room.JOIN_LIMIT`) and wrong codes per
address (:data:`app.classroom.core.room.WRONG_CODE_LIMIT`), so guessing a live code takes on the
order of a hundred million tries at two a second.

The teacher's control is a random secret held in the teacher's browser session (and in that
browser's teacher cookie, so a reload gets the class back), and a *teacher PIN* of ten
characters from :data:`ALPHABET` (49.5 bits), shown only in the teacher's sidebar, typed to get
the class back in another browser. The store keeps only their SHA-256 hashes, so reading the
store does not give control of a class.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata

__all__ = [
    "ALPHABET",
    "CODE_LENGTH",
    "NAME_MAX",
    "PIN_LENGTH",
    "check_name",
    "credentials_hash",
    "format_pin",
    "hash_secret",
    "matches",
    "new_code",
    "new_name",
    "new_pin",
    "new_secret",
    "new_student_id",
    "normalise_code",
    "normalise_pin",
    "unique_name",
]

#: Letters and digits without look-alikes: no 0/O, 1/I/L.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: A teacher PIN's length: 31**10 PINs, 49.5 bits.
PIN_LENGTH = 10
#: A nickname's longest length, in characters.
NAME_MAX = 24

_ADJECTIVES = (
    "Blue", "Brave", "Bright", "Calm", "Clever", "Quick", "Gentle", "Golden", "Green", "Happy",
    "Jolly", "Kind", "Lucky", "Mighty", "Noble", "Proud", "Quiet", "Red", "Silver", "Swift",
    "Sunny", "Wise", "Witty", "Bold", "Cosmic", "Eager", "Fancy", "Lively", "Merry", "Nimble",
)  # fmt: skip
_ANIMALS = (
    "Heron", "Otter", "Falcon", "Badger", "Beaver", "Dolphin", "Eagle", "Fox", "Gecko", "Hare",
    "Ibis", "Jaguar", "Koala", "Lemur", "Lynx", "Marten", "Newt", "Owl", "Panda", "Puffin",
    "Quail", "Raven", "Seal", "Tiger", "Toucan", "Walrus", "Wombat", "Yak", "Zebra", "Crane",
)  # fmt: skip


def new_code() -> str:
    """A fresh join code (the store refuses one already in use; the room draws again)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str | None:
    """The code a person typed, upper-cased without spaces or dashes; ``None`` when it cannot
    be a code (wrong length or a character outside :data:`ALPHABET`)."""
    code = "".join(ch for ch in str(text)[:40] if ch not in " -\t").upper()
    if len(code) != CODE_LENGTH or any(ch not in ALPHABET for ch in code):
        return None
    return code


def new_secret() -> str:
    """The teacher's secret: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(32)


def new_pin() -> str:
    """A teacher PIN: :data:`PIN_LENGTH` characters of :data:`ALPHABET` (read it with
    :func:`format_pin`)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(PIN_LENGTH))


def format_pin(pin: str) -> str:
    """A PIN as it is shown, in two groups of five ("ABCDE-FGHJK")."""
    half = len(pin) // 2
    return f"{pin[:half]}-{pin[half:]}"


def normalise_pin(text: str) -> str | None:
    """The PIN a person typed, upper-cased without spaces or dashes; ``None`` when it cannot be
    one."""
    pin = "".join(ch for ch in str(text)[:40] if ch not in " -\t").upper()
    if len(pin) != PIN_LENGTH or any(ch not in ALPHABET for ch in pin):
        return None
    return pin


def new_student_id() -> str:
    """A student's token: 128 random bits."""
    return secrets.token_urlsafe(16)


def hash_secret(secret: str) -> str:
    """What the store keeps of a secret: its SHA-256 in hex."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def credentials_hash(*credentials: str) -> str:
    """What the store keeps of a class's teacher credentials (the secret, the PIN): their
    hashes, separated by spaces. A class started before PINs keeps one hash; it still
    :func:`matches`."""
    return " ".join(hash_secret(c) for c in credentials)


def matches(secret: str, stored_hash: str) -> bool:
    """Whether ``secret`` is one of the credentials whose hashes were stored (constant-time
    comparisons, every one made)."""
    digest = hash_secret(secret)
    found = False
    for stored in stored_hash.split():
        found |= hmac.compare_digest(digest, stored)
    return found


def new_name(taken: set[str] | frozenset[str] = frozenset()) -> str:
    """A friendly nickname ("Blue Heron") not in ``taken``; a number is added when all 900
    pairs are taken."""
    for _ in range(50):
        name = f"{secrets.choice(_ADJECTIVES)} {secrets.choice(_ANIMALS)}"
        if name not in taken:
            return name
    return f"{secrets.choice(_ADJECTIVES)} {secrets.choice(_ANIMALS)} {secrets.randbelow(1000)}"


#: Formatting characters a name may hold: the zero-width joiner of joined emoji (👩‍🏫) and
#: the tag characters of subdivision flags. Every other control or formatting character (the
#: bidi overrides among them) is refused.
_JOINERS = frozenset({"\u200d", *map(chr, range(0xE0020, 0xE0080))})


class NameRefused(ValueError):
    """Why a typed nickname was refused: ``reason`` is ``"empty"``, ``"long"`` (``values``:
    ``n``, the most characters, and ``length``) or ``"control"``; the text is the English
    reason (the room makes the sentence a person reads from ``reason`` and ``values``)."""

    def __init__(self, reason: str, text: str, **values: int) -> None:
        super().__init__(text)
        self.reason = reason
        self.values = values


def check_name(text: str) -> str:
    """A typed nickname made safe to keep: spaces trimmed and folded; ``ValueError`` with a
    short reason when it is empty, longer than :data:`NAME_MAX` characters (saying how long it
    is) or holds a control or formatting character other than an emoji's joiners (it is shown
    only as escaped text either way)."""
    name = " ".join(str(text).split())
    if not name:
        raise NameRefused("empty", "a name needs at least one letter")
    if len(name) > NAME_MAX:
        raise NameRefused(
            "long",
            f"a name has at most {NAME_MAX} characters; this one has {len(name)}",
            n=NAME_MAX,
            length=len(name),
        )
    controls = ("Cc", "Cf", "Co", "Cs", "Zl", "Zp")
    if any(unicodedata.category(ch) in controls and ch not in _JOINERS for ch in name):
        raise NameRefused("control", "a name cannot hold control characters")
    return name


def unique_name(name: str, taken: set[str] | frozenset[str]) -> str:
    """``name``, or with the first free number after it ("Ada 2") when another student of the
    class has it already (letter case aside), cut so that it stays :data:`NAME_MAX` long."""
    folded = {other.casefold() for other in taken}
    if name.casefold() not in folded:
        return name
    for number in range(2, len(folded) + 3):
        suffix = f" {number}"
        candidate = name[: NAME_MAX - len(suffix)].rstrip() + suffix
        if candidate.casefold() not in folded:
            return candidate
    raise ValueError("no free name")  # (unreachable: one of len(taken) + 1 numbers is free)
