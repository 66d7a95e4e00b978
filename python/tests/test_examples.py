"""The examples of python/examples run and pass their own checks."""
import json
import os
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "examples")


def run_example(*args):
    result = subprocess.run([sys.executable, *args], capture_output=True,
                            text=True, cwd=EXAMPLES, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_first_program():
    assert "rel_l2" in run_example("first_program.py")


@pytest.mark.parametrize("backend", ["reference", "vulkan"])
def test_sgp_numpy(backend, request):
    if backend == "vulkan":
        request.getfixturevalue("vulkan")  # skips without a Vulkan device
    out = run_example("sgp.py", f"--backend={backend}", "--batch=24",
                      "--features=20")
    assert out.rstrip().endswith("ok"), out


def test_sgp_save(tmp_path):
    run_example("sgp.py", f"--save={tmp_path}", "--batch=4096",
                "--features=512")
    manifest = json.loads((tmp_path / "sgp_cl3.ptx.json").read_text())
    assert manifest["entry"] == "sgp_cl3"
    assert b".entry" in (tmp_path / "sgp_cl3.ptx").read_bytes()
