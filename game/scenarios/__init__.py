"""The scenarios and played saves shipped with hexfire (package data, so an installed copy has
them too). :mod:`game.files.shipped` lists them for the command line and the screen."""
