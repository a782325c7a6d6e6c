"""The one map view and its parts: hex geometry and the camera, terrain drawing, counters, the
minimap, the map's input and the analysis layer (LOS thread, threat and attack maps).
"""
