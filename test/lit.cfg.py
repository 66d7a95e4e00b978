# -*- Python -*-
# lit configuration of the UTA compiler tests.

import os
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "UTA"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "unit", "fuzz"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.uta_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tools = [
    ToolSubst("utac", unresolved="fatal"),
    ToolSubst("uta-opt", unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, [config.uta_tools_dir])

# The CUDA toolkit (ptxas, libdevice) is part of these machines' image, not a
# Debian package. Tests that assemble PTX say `REQUIRES: ptxas`; in CI a
# missing toolkit is a failure, never a silent skip, so CI cannot pass without
# having assembled any PTX.
cuda_home = os.environ.get("CUDA_HOME") or "/usr/local/cuda"
ptxas = os.path.join(cuda_home, "bin", "ptxas")
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
elif os.environ.get("CI", "").lower() in ("1", "true", "yes"):
    lit_config.fatal("CI=true but the CUDA toolkit is missing: " + ptxas +
                     " not found (set CUDA_HOME)")
if os.path.exists(os.path.join(cuda_home, "nvvm", "libdevice",
                               "libdevice.10.bc")):
    config.available_features.add("libdevice")

# `REQUIRES: vulkan` holds when uta-run finds a Vulkan device (lavapipe, from
# mesa-vulkan-drivers, which scripts/uta.sh installs, is enough). In CI
# (CI=true) a missing device fails the run instead of skipping those tests,
# as a missing CUDA toolkit does.
uta_run = os.path.join(config.uta_tools_dir, "uta-run")
why = "uta-run not found"
try:
    probe = subprocess.run([uta_run, "--print-device", "--backend=vulkan"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=120)
    if probe.returncode == 0:
        config.available_features.add("vulkan")
    why = probe.stderr.decode().strip()
except (OSError, subprocess.TimeoutExpired) as error:
    why = str(error)
if ("vulkan" not in config.available_features and
        os.environ.get("CI", "").lower() in ("1", "true", "yes")):
    lit_config.fatal("CI=true but no Vulkan device for the vulkan tests: " +
                     why)
