"""The rules library: pure functions over plain values, every number citing its rule.

Dice (``dice``), To Hit (``to_hit``: 002, C6, RD-1..4), the Defensive First Fire budget
(``dff``: C6.17), acquisition (``acquisition``: C6.5-.58), To Kill (``to_kill``: C7; ``chart``:
002), what follows (``outcomes``: RD-5, 002, C7.42), facing (``facing``: RD-8) and one whole
attack with its exact odds (``attack``).
"""
