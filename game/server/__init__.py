"""The hexfire server (``hexfire serve``; docs/online.md): the authoritative game of every game
it hosts, each seat sent its side's view and nothing else, every action stored durably before
it is acknowledged (:mod:`.store`), honest dice (a commitment to the seed at creation, revealed
at the end). Beside the screen, above the session and the wire (game.net); no pygame."""
