"""The examples of python/examples, and the Python blocks of README.md and
docs/python.md, run (and pass their own checks)."""
import json
import os
import subprocess
import sys

import pytest

from conftest import import_torch

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


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compile"])
def test_train_products_reaches_its_loss_on_cpu(compiled):
    import_torch()
    out = run_example("train_products.py", "--device=cpu", "--batch=64",
                      "--features=8", "--steps=600",
                      *(["--compile"] if compiled else []))
    assert out.rstrip().endswith(": ok"), out


def python_blocks(path):
    """The ```python blocks of a Markdown file, in order."""
    blocks, block = [], None
    with open(path) as markdown:
        for line in markdown:
            if block is None and line.strip() == "```python":
                block = []
            elif block is not None and line.strip() == "```":
                blocks.append("".join(block))
                block = None
            elif block is not None:
                block.append(line)
    return blocks


ROOT = os.path.join(EXAMPLES, "..", "..")


@pytest.mark.parametrize("doc", ["README.md", "docs/python.md"])
def test_documented_programs_run(doc, vulkan):
    blocks = python_blocks(os.path.join(ROOT, doc))
    assert blocks, f"{doc} has no python block"
    for block in blocks:
        result = subprocess.run([sys.executable, "-c", block],
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, f"{doc}:\n{block}\n{result.stderr}"
