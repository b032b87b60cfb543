"""Standing fuzzing of lowpass's tools (issue 18): mutators, a graph generator, the harness.

Run it with `python test/fuzz/run.py --inputs 25000` (see docs/fuzzing.md); the short
deterministic run is test/fuzz/test_fuzz.py.
"""
