"""The panels around the map, shared by the play screen and the replay viewer: the phase bar,
the side panel's parts, the log and its links, the button row.
"""
