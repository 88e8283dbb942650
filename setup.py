"""The Mahjongg solver's compiled core, an optional C extension.

Everything else about the package is in pyproject.toml. `optional=True`: where
no C compiler is present (or the build fails) the install still succeeds, and
the solver runs its pure-Python reference instead (see docs/solver.md).
"""

import platform
import sys

from setuptools import Extension, setup

# The core counts bits all the time; x86-64 processors have had an instruction
# for it since 2008 (x86-64-v2), without which the compiler calls a function.
flags = []
if sys.platform != "win32" and platform.machine().lower() in ("x86_64", "amd64"):
    flags.append("-mpopcnt")

setup(
    ext_modules=[
        Extension(
            "pyramids.games.mahjongg._solvercore",
            ["src/pyramids/games/mahjongg/_solvercore.c"],
            extra_compile_args=flags,
            optional=True,
        )
    ]
)
