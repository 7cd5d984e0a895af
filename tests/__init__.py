"""The test suite (a package, so that tests and benchmarks share tests/support.py)."""
