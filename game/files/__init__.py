"""The files layer: scenario TOML files (the ``[map]`` table so far), with errors that say
file:line and field path."""
