"""The art the screen draws (packaged as ``game.assets``, so an installed copy has it too);
:func:`game.files.shipped.assets_dir` finds it. See this folder's README."""
