"""The scenarios and played saves shipped with hexfire. This top-level folder is packaged as
``game.scenarios`` (pyproject's ``package-dir``), so an installed copy has them too;
:mod:`game.files.shipped` lists them for the command line and the screen."""
