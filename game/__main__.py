"""``python -m game`` does what the ``hexfire`` command does."""

from game.cli import main

raise SystemExit(main())
