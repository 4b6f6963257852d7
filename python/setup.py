"""Builds the scankit Python package: the pure-Python package in scankit/ plus its native
library, libscankit_capi.so, built by the scankit CMake project one directory up.

    /usr/bin/python3 -m venv --system-site-packages .venv
    .venv/bin/pip install --no-build-isolation ./python

works offline. The library is a plain C ABI (no Python headers), so the wheel is tagged
py3-none-<platform>: one build serves every Python 3. CMake options for the native build
(for example -DCMAKE_CUDA_ARCHITECTURES=90, or -DSCANKIT_ENABLE_CUDA=OFF for a CPU-only
package) go in the SCANKIT_CMAKE_ARGS environment variable of the build; CMAKE_BUILD_PARALLEL_LEVEL
sets the compile jobs.
"""

import os
import shlex
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LIBRARY = "libscankit_capi.so"
DIST_LIBRARIES = ("libscankit_dist_capi.so", "libscankit_dist_nccl_capi.so")


def _version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        for line in f:
            if line.startswith("project(scankit VERSION"):
                return line.split("VERSION")[1].split()[0]
    return "0"


class BuildWithCMake(build_py):
    """build_py, then the native library with CMake, copied into the built package."""

    def run(self):
        super().run()
        build_dir = os.path.join(os.path.abspath(self.build_lib), "..", "scankit-cmake")
        build_dir = os.path.normpath(build_dir)
        args = [
            "cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
            "-DSCANKIT_BUILD_TESTS=OFF", "-DSCANKIT_BUILD_TOOLS=OFF", "-DSCANKIT_INSTALL=OFF",
            "-DSCANKIT_BUILD_PYTHON=ON",
        ]
        if shutil.which("ninja"):
            args += ["-G", "Ninja"]
        args += shlex.split(os.environ.get("SCANKIT_CMAKE_ARGS", ""))
        if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
            subprocess.check_call(args)
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "scankit_python"])
        target = os.path.join(self.build_lib, "scankit")
        os.makedirs(target, exist_ok=True)
        for name in (LIBRARY,) + DIST_LIBRARIES:
            # scankit.dist's libraries exist where CMake found MPI and NCCL.
            built = os.path.join(build_dir, "python", "scankit", name)
            if os.path.exists(built):
                shutil.copy2(built, os.path.join(target, name))


class BinaryDistribution(Distribution):
    """A platform wheel (it carries a shared library), not tied to one Python version."""

    def has_ext_modules(self):
        return True


cmdclass = {"build_py": BuildWithCMake}
try:
    from wheel.bdist_wheel import bdist_wheel

    class PlatformWheel(bdist_wheel):
        def get_tag(self):
            _, _, plat = super().get_tag()
            return "py3", "none", plat

    cmdclass["bdist_wheel"] = PlatformWheel
except ImportError:  # pragma: no cover - without wheel, pip falls back to a legacy install
    pass

setup(
    name="scankit",
    version=_version(),
    description="Prefix scan, stream compaction, radix sort and histograms for NumPy, CuPy and PyTorch",
    long_description=open(os.path.join(HERE, "README.md")).read() if os.path.exists(os.path.join(HERE, "README.md")) else "",
    long_description_content_type="text/markdown",
    license="Apache-2.0",
    packages=["scankit"],
    python_requires=">=3.9",
    install_requires=["numpy"],
    cmdclass=cmdclass,
    distclass=BinaryDistribution,
    zip_safe=False,
)
