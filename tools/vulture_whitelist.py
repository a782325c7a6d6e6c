"""Names the dead-code finder (vulture, run by CI) cannot see used: pytest's autouse fixtures and
what only CI's wheel check calls."""

from game.files.shipped import assets_dir

_data_dir  # tests/test_ui*.py: autouse fixtures (the data folder of each test)
assets_dir  # .ci/run: the wheel check finds the installed art with it
