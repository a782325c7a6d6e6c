"""The replay viewer (``hexfire watch SAVE``): a saved game on the map, action by action."""
