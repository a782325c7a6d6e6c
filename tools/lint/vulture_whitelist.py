"""Names the dead-code finder (vulture, run by CI) cannot see used: pytest's autouse fixtures and
what only CI's wheel check calls."""

from game.files.shipped import assets_dir

_data_dir  # tests/test_ui*.py: autouse fixtures (the data folder of each test)
assets_dir  # .ci/run: the wheel check finds the installed art with it

# pydantic reads these by name: each schema's configuration, a save's format version (checked
# by hand first, declared for the schema), an after-validator, and a side's flag read by getattr
from game.files.savegame import SaveDoc  # noqa: E402
from game.files.scenario_schema import Area, Side  # noqa: E402

SaveDoc.model_config
SaveDoc.version
Area._readable
Side.moves_first

# pygame-gui calls it: the file dialog's own listing, overridden (game/ui/scenes/filedialog.py)
from game.ui.scenes.filedialog import FileDialog  # noqa: E402

FileDialog._create_list_of_directories_and_files_on_current_path

# pydantic calls them: the lesson steps' model validators (game/files/scenario_schema.py)
from game.files.scenario_schema import LessonStep, LessonTable  # noqa: E402

LessonStep._one_wait
LessonTable._not_too_many

# a side's view: fields a remote window reads from its JSON form (game/engine/view.py)
from game.engine.view import UnitView, View  # noqa: E402

UnitView.mp_left
View.phase_title

# pytest calls it: tests/conftest.py marks the slow tests
pytest_collection_modifyitems
