"""The teacher's side of the course: grading tools that never ship to a student.

``chutes_edu`` is what every student imports; ``chutes_teacher`` holds what only the teacher runs,
beside ``nbgrader_config.py``. ``chutes_edu`` never imports it (the import-linter contracts in
pyproject.toml, tests/test_layers.py).

- :mod:`chutes_teacher.sandbox`: nbgrader's Execute step with each submission's kernel in a
  bubblewrap sandbox (``SandboxedExecute``, used by ``nbgrader_config.py``);
- :mod:`chutes_teacher.autograde`: ``python -m chutes_teacher.autograde <set> --jobs N``, the
  autograde of a whole class outside the teacher's Lab server, N submissions at a time.

The threat model: a submission is code written by a student who may want marks without the work
or harm to the course. nbgrader runs it as the teacher, so, unconfined, it can read the worked
solutions and the answer checks, the teacher's secrets (the hub token in the environment), every
other submission and the gradebook, write any of them, reach the network, leave processes
running after autograde and hold autograde with endless or costly cells. The sandbox removes
each of these; what it leaves is listed in TEACHING.md ("What the sandbox protects").
"""
