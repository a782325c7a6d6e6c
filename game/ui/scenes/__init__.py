"""The window's scene stack and what moves between scenes: routes, opening a file, the loading
screen, the file dialog.
"""
