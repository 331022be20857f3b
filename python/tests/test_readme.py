"""The Python examples of README.md, taken from between their markers and run as a user would:
from the repository root, with the package of this tree on the path."""

import os
import subprocess
import sys

from conftest import PYDIR, REPO


def readme_example(marker="python-example"):
    text = (REPO / "README.md").read_text()
    start, end = f"<!-- {marker}:start -->", f"<!-- {marker}:end -->"
    assert text.count(start) == 1 and text.count(end) == 1, f"README.md holds one Python example marked {marker}"
    block = text[text.index(start) + len(start) : text.index(end)].strip()
    assert block.startswith("```python\n") and block.endswith("```"), block[:40]
    return block[len("```python\n") : -3]


def run_example(code):
    env = dict(os.environ, PYTHONPATH=str(PYDIR))
    r = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_the_readme_python_example_runs():
    code = readme_example()
    assert "metaopt.HC12QAP" in code and "assert" in code
    out = run_example(code)
    assert "nug12:" in out and "-> 578" in out and "sphere:" in out


def test_the_readme_island_de_example_runs():
    code = readme_example("python-de-example")
    assert "metaopt.IslandDE" in code and "assert" in code
    out = run_example(code)
    value = float(out.split("DE F1:")[1].split()[0])
    python = float(out.split("DE Python sphere:")[1].split()[0])
    assert value < 1e-8 and python < 1e-6, out


def test_the_readme_qap_tabu_search_example_runs():
    code = readme_example("python-qap-ts-example")
    assert "metaopt.qap_solve" in code and "assert" in code
    out = run_example(code)
    assert "had12 tabu search: 1652 gap 0.0" in out and "nug12 tabu search: 578 bks 578" in out, out


def test_the_readme_batched_de_example_runs():
    code = readme_example("python-bde-example")
    assert "metaopt.BatchDE" in code and "assert" in code
    out = run_example(code)
    assert "batch:" in out and "target" in out, out
