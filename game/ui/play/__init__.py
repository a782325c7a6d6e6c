"""The play screen: the map, the side panel with the odds, the log, and its orders and dialogs."""
