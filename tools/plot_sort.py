#!/usr/bin/env python3
"""Plot of a `scankit sweep sort` run: the same plot as every sweep's (plot_sweep.py).

    python3 tools/plot_sort.py sweep-sort-u32.json [--out PREFIX]
"""

import os
import runpy
import sys

if __name__ == "__main__":
    sys.argv[0] = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plot_sweep.py")
    runpy.run_path(sys.argv[0], run_name="__main__")
