"""Moved: :mod:`chutes_teacher.gradebook`, the teacher's package beside ``nbgrader_config.py``.

A student's kernel never needs it, so it left the course library. This module keeps the old
import path (and ``python -m chutes_edu.gradebook``) working for one release, with a
``DeprecationWarning``.
"""

import sys
import warnings

from chutes_teacher import gradebook as _moved
from chutes_teacher.gradebook import *  # noqa: F403 - the old path, for one release

warnings.warn("chutes_edu.gradebook has moved to chutes_teacher.gradebook; import it from there "
              "(the old path goes in the next release)", DeprecationWarning, stacklevel=2)

__all__ = list(_moved.__all__)

if __name__ == "__main__":
    sys.exit(_moved.main())
