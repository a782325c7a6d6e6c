"""Scenes over the play screen: the hotseat handover, the Defensive First Fire prompt, the end
of the game.
"""
