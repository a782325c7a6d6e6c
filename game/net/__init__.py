"""The network between hexfire's seats: the wire's messages (:mod:`.wire`), which the server
(game.server) and a remote window (game.ui) both speak (docs/online.md). Above the session,
below the server and the screen; it imports no pygame."""
