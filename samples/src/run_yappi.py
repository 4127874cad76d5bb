"""Profile pysample.py's main() with yappi and save the stats in callgrind
format. Usage: python3 run_yappi.py OUTPUT (run from the repository root)."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in samples/src

import yappi

# a relative sys.path entry keeps the recorded file names relative
sys.path.insert(0, os.path.relpath(os.path.dirname(os.path.abspath(__file__))))
import pysample  # noqa: E402  (samples/src/pysample.py)

yappi.set_clock_type("cpu")
yappi.start(builtins=True)
pysample.main()
yappi.stop()
yappi.get_func_stats().save(sys.argv[1], type="callgrind")
