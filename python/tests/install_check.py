"""`pip install ./python` as the README gives it, checked end to end (ctest: python_pip_install).

    install_check.py SOURCE_DIR WORK_DIR

Copies the project's sources (without build trees) to WORK_DIR/src, makes a virtual environment
with the system's site packages from this interpreter, installs the package into it offline
(`--no-index --no-build-isolation`; the native library built for the CPU only, without
optimisation or debug information, to keep the check short: 1.2 against 2.8 minutes on 2 cores), and runs
the installed package from outside the sources on random arrays against NumPy. Exits non-zero,
saying which step failed, when any of it does. (Not a pytest module: its name keeps pytest from
collecting it.)
"""

import os
import shutil
import subprocess
import sys

_SKIP = shutil.ignore_patterns(".git", "build", "scratch", ".venv", "*.egg-info", "__pycache__", ".gpudeps",
                               ".devbundle*")

_SMOKE = r"""
import os, sys
import numpy as np
import scankit
where = os.path.dirname(scankit.__file__)
assert where.startswith(sys.prefix), f"scankit imported from {where}, not from the environment {sys.prefix}"
rng = np.random.default_rng()
for n in (0, 1, 4097, 1 << 20):
    x = rng.integers(-1000, 1000, n).astype(np.int32)
    assert np.array_equal(scankit.cumsum(x), np.cumsum(x, dtype=np.int32)), f"cumsum, n = {n}"
    assert np.array_equal(scankit.sort(x), np.sort(x)), f"sort, n = {n}"
    m = x > 0
    assert np.array_equal(scankit.select(x, m), x[m]), f"select, n = {n}"
    c, e = scankit.histogram(x.astype(np.float32), bins=64, range=(-1000, 1000))
    wc, we = np.histogram(x.astype(np.float32), bins=64, range=(-1000, 1000))
    assert np.array_equal(c, wc) and np.allclose(e, we), f"histogram, n = {n}"
print(f"scankit {scankit.__version__} from {where}: cumsum, sort, select and histogram match NumPy")
"""


def _run(step, args, **kw):
    print(f"install_check: {step}: {' '.join(args)}", flush=True)
    r = subprocess.run(args, **kw)
    if r.returncode != 0:
        sys.exit(f"install_check: {step} failed (exit {r.returncode})")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source, work = (os.path.abspath(p) for p in sys.argv[1:])
    shutil.rmtree(work, ignore_errors=True)
    src = os.path.join(work, "src")
    shutil.copytree(source, src, ignore=_SKIP)
    venv = os.path.join(work, "venv")
    _run("virtual environment", [sys.executable, "-m", "venv", "--system-site-packages", venv])
    env = dict(os.environ)
    env["SCANKIT_CMAKE_ARGS"] = ("-DSCANKIT_ENABLE_CUDA=OFF -DSCANKIT_ENABLE_MPI=OFF -DSCANKIT_ENABLE_NCCL=OFF "
                                 "-DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0")  # no -g: nothing debugs it
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
    env.pop("PYTHONPATH", None)  # the installed package, not a staged one
    pip = os.path.join(venv, "bin", "pip")
    _run("pip install", [pip, "install", "-q", "--no-index", "--no-build-isolation", os.path.join(src, "python")],
         env=env)
    _run("installed package against NumPy", [os.path.join(venv, "bin", "python"), "-c", _SMOKE], env=env, cwd=work)


if __name__ == "__main__":
    main()
