"""The files layer: scenario TOML files (validated, errors as file:line: field.path: reason),
the saved-game format, replays with a check after every action, the playing session with its
autosave, and the scenarios shipped with the game."""
