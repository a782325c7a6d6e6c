"""The start screen: the shipped scenarios, the lessons, the saves, and how to begin."""
