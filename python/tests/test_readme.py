"""The Python example of README.md, taken from between its markers and run as a user would:
from the repository root, with the package of this tree on the path."""

import os
import subprocess
import sys

from conftest import PYDIR, REPO


def readme_example():
    text = (REPO / "README.md").read_text()
    start, end = "<!-- python-example:start -->", "<!-- python-example:end -->"
    assert text.count(start) == 1 and text.count(end) == 1, "README.md holds one marked Python example"
    block = text[text.index(start) + len(start) : text.index(end)].strip()
    assert block.startswith("```python\n") and block.endswith("```"), block[:40]
    return block[len("```python\n") : -3]


def test_the_readme_python_example_runs():
    code = readme_example()
    assert "metaopt.HC12QAP" in code and "assert" in code
    env = dict(os.environ, PYTHONPATH=str(PYDIR))
    r = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "nug12:" in r.stdout and "-> 578" in r.stdout and "sphere:" in r.stdout
