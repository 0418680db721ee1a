"""Build hook: ship the top-level rulesets/ and schemas/ inside the wheel.

The source tree keeps data at the top level (easy to find and to mod); an
installed copy finds the same files under ``pegboard/data/``.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).parent
DATA_DIRS = ("rulesets", "schemas")


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return  # editable installs read the data straight from the source tree
        target = Path(self.build_lib) / "pegboard" / "data"
        for name in DATA_DIRS:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, target / name, dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildWithData})
