"""The package as a whole: the README's example runs and prints what it says,
the type stubs cover every public name, every public item has a docstring,
the example script and the benchmark run."""

import ast
import re
import subprocess
import sys
from pathlib import Path

import chariot
from chariot import _chariot

PACKAGE = Path(__file__).resolve().parents[1]


def test_readme_example(capsys):
    readme = (PACKAGE / "README.md").read_text()
    code = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("[Move.from_uci('c2c0')")
    assert out[2] == "0-1 perpetual chase of the black cannon on b6 by red"
    assert out[3] == "verdict black_wins"
    assert "  ply   7 black c6b6: idle" in out


def test_stubs_cover_the_module():
    stubs = ast.parse((PACKAGE / "chariot" / "_chariot.pyi").read_text())
    names = set()
    for node in stubs.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    public = {n for n in dir(_chariot) if not n.startswith("_")}
    assert public <= names, public - names
    for cls in stubs.body:
        if isinstance(cls, ast.ClassDef) and not cls.name.endswith("Error"):
            stubbed = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
            real = {n for n in dir(getattr(_chariot, cls.name)) if not n.startswith("_")}
            assert real <= stubbed | {a.target.id for a in cls.body if isinstance(a, ast.AnnAssign)}, (cls.name, real - stubbed)


def test_docstrings():
    for name in chariot.__all__:
        item = getattr(chariot, name)
        if isinstance(item, type) or callable(item):
            assert item.__doc__, name
        if isinstance(item, type) and not issubclass(item, Exception):
            for attr, value in vars(item).items():
                if not attr.startswith("_"):
                    assert value.__doc__, f"{name}.{attr}"


def test_tournament_example():
    out = subprocess.run(
        [sys.executable, PACKAGE / "examples" / "tournament.py", "--games", "2", "--nodes", "400"],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout
    assert out.count("game ") == 2 and "score: A " in out


def test_benchmark_script():
    out = subprocess.run(
        [sys.executable, PACKAGE / "benchmarks" / "playouts.py", "--seconds", "0.05", "--plies", "10",
         "--perft-depth", "3"],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout
    assert "playouts/s" in out and "perft(3) from Python: 79666 nodes" in out
