"""Honest dice (docs/online.md): a server commits to a game's seed before the first action and
reveals it at the end, and a hash chain binds the scenario to every action.

- The commitment: SHA-256 of the ASCII text ``hexfire-seed-v1:SEED:SALT`` (the seed in
  decimal, the salt 32 hex digits), published to both seats when the game is made. The salt
  keeps the seed from being found by trying every seed against the commitment.
- The chain: it starts from the SHA-256 of the scenario's text (published with the
  commitment: the scenario cannot be swapped afterwards); each action extends it with
  ``SHA-256(previous + "\\n" + the action's canonical JSON + "\\n" + dice drawn + "\\n" + state
  hash)``. Its head after the last action is in the whole save.

``hexfire replay --verify`` checks both (after every die and state hash) when a save has them.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable

SCHEME = "hexfire-seed-v1"
SALT = re.compile(r"^[0-9a-f]{32}$")


def commitment(seed: int, salt: str) -> str:
    """The SHA-256 (hex) a server publishes for ``seed`` and ``salt`` before the game."""
    return hashlib.sha256(f"{SCHEME}:{seed}:{salt}".encode("ascii")).hexdigest()


def chain_link(previous: str, entry: dict) -> str:
    """The chain's next value after one saved action (its JSON form, dice drawn, state hash)."""
    action = json.dumps(entry["action"], sort_keys=True, separators=(",", ":"))
    text = f"{previous}\n{action}\n{entry['draws']}\n{entry['hash']}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def chain_head(scenario_sha256: str, actions: Iterable[dict]) -> str:
    """The chain's head: from the scenario's SHA-256 through every saved action."""
    head = scenario_sha256
    for entry in actions:
        head = chain_link(head, entry)
    return head


def check_commitment(seed: int, record: dict) -> str | None:
    """Why a save's commitment record (``{"scheme", "sha256", "salt"}``) does not bind its
    seed (None: it does)."""
    if record.get("scheme") != SCHEME:
        return f"commitment: unknown scheme {str(record.get('scheme'))[:40]!r} (expected {SCHEME})"
    salt = record.get("salt")
    if not isinstance(salt, str) or not SALT.match(salt):
        return "commitment: the salt is not revealed (32 hex digits)"
    if commitment(seed, salt) != record.get("sha256"):
        return "commitment: SHA-256 of the seed and salt differs from the one published"
    return None


def check_save(
    seed: int, scenario_sha256: str, actions: list[dict], record: dict | None, head: str | None
) -> tuple[list[str], str | None]:
    """A save's honest-dice checks (its commitment and chain, where it has them): what was
    checked ("seed commitment", "hash chain of N actions") and the first problem, or None."""
    checked: list[str] = []
    if record is not None:
        why = check_commitment(seed, record)
        if why:
            return checked, why
        checked.append("seed commitment")
    if head is not None:
        if chain_head(scenario_sha256, actions) != head:
            return (
                checked,
                "chain: the hash chain from the scenario's SHA-256 does not reach its head",
            )
        checked.append(f"hash chain of {len(actions)} actions")
    return checked, None


def check_published(
    commitment_sha256: str, scenario_sha256: str, revealed: dict | None, save_scenario: str
) -> str | None:
    """Why a whole save downloaded at a game's end is not the game committed to when it was
    made (None: it is): the seed's commitment and the scenario's SHA-256 published then must
    be the save's."""
    if revealed is None:
        return "the save reveals no seed commitment"
    if revealed.get("sha256") != commitment_sha256:
        return "the save's seed commitment is not the one published when the game was made"
    if save_scenario != scenario_sha256:
        return "the save's scenario is not the one published when the game was made"
    return None
