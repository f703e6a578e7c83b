# lit configuration for an5dc. Paths come from lit.site.cfg.py (generated
# by CMake in build/test).
import os
import lit.formats

config.name = "an5dc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.an5d_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.an5d_bin_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
for var in ("HOME", "TMPDIR", "CXX", "CC"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# an5dc-emucc's precompiled emulation headers: one per set of build options,
# kept with the build (not in the user's cache), shared by every test.
config.environment["AN5D_EMUCC_CACHE"] = os.path.join(config.an5d_obj_root, "test", "emucc-cache")

import sys
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%an5dc_emucc", os.path.join(config.an5d_bin_dir, "an5dc-emucc")))
config.substitutions.append(("%an5dc", os.path.join(config.an5d_bin_dir, "an5dc")))
config.substitutions.append(("%benchmarks", os.path.join(config.an5d_src_root, "benchmarks")))
config.substitutions.append(("%an5d_src", config.an5d_src_root))
config.substitutions.append(("%FileCheck", os.path.join(config.llvm_tools_dir, "FileCheck")))

# nvcc, where installed, lets tests read ptxas's register and spill report.
import shutil
_nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
if _nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", _nvcc))

# The host compiler of the emulation builds is g++ (an5dc-emucc precompiles
# its header with g++ only).
import subprocess
try:
    _macros = subprocess.run((os.environ.get("CXX") or "c++").split() + ["-dM", "-E", "-x", "c++", os.devnull],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True).stdout
    if "__GNUC__" in _macros and "__clang__" not in _macros:
        config.available_features.add("gcc-host")
except OSError:
    pass

# OpenMPI (scripts/install-deps.sh installs it): the --mpi execution tests
# build the emulation with mpicxx and run it under mpirun.
if shutil.which("mpirun") and shutil.which("mpicxx"):
    config.available_features.add("mpi")

# The fuzzer, where the build has it (-DAN5D_FUZZ=ON, fuzz/).
if getattr(config, "an5d_fuzz", "").upper() in ("ON", "TRUE", "YES", "1"):
    config.available_features.add("fuzzer")
    config.substitutions.append(("%an5d_fuzz", os.path.join(config.an5d_bin_dir, "an5d-fuzz")))
