"""Record the rules' fingerprint (tests/data/rules_fingerprint.json) under today's RULES_VERSION.

    python3 tools/data/record_rules_fingerprint.py
    python3 tools/data/record_rules_fingerprint.py --not-play "why"

A change that alters play raises RULES_VERSION first (game/engine/rules_version.py, CHANGELOG.md,
the shipped saves recorded again); then this records the new digests under it. It refuses to
record digests that differ from those recorded under the same version: that is play changed
without a RULES_VERSION bump. Only a change of the fingerprint's own inputs that is not a
change of play (a new state field in the state hash, a new datum in an event) may be recorded
so, with ``--not-play`` and its reason, which the file keeps.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from game.engine.rules_version import RULES_VERSION
from game.files.fingerprint import fingerprint

FILE = Path(__file__).resolve().parents[2] / "tests" / "data" / "rules_fingerprint.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--not-play", metavar="WHY", help="the digests changed, play did not")
    args = parser.parse_args()
    old = json.loads(FILE.read_text()) if FILE.exists() else None
    digests = fingerprint()
    notes = list(old.get("not_play", [])) if old else []
    if old and old["rules_version"] == RULES_VERSION and old["digests"] != digests:
        changed = sorted(k for k in digests if digests[k] != old["digests"].get(k))
        if not args.not_play:
            print(
                f"play changed ({', '.join(changed)}) under rules version {RULES_VERSION}: "
                "raise RULES_VERSION (game/engine/rules_version.py) first, or say with "
                "--not-play why this is no change of play"
            )
            return 1
        notes.append({"rules_version": RULES_VERSION, "changed": changed, "why": args.not_play})
    record = {"rules_version": RULES_VERSION, "digests": digests}
    if notes:
        record["not_play"] = notes
    FILE.write_text(json.dumps(record, indent=2) + "\n")
    print(f"{FILE}: rules version {RULES_VERSION}, {len(digests)} digests")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
