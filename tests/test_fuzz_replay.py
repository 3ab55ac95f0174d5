"""Every fuzz harness (tests/fuzz/fuzz_*.py) run once over each input of its
committed seed corpus (tests/fuzz/corpus/<harness>/), so the harnesses'
properties hold on the seeds in every test run, without atheris.

The harnesses are imported with a stand-in ``atheris`` module: they only use
it to instrument imports and to start libFuzzer, neither of which a replay
needs (and the real one would load libFuzzer into the test process).
"""

import contextlib
import importlib.util
import os
import sys
import types

import pytest

pytest.importorskip("pyarrow")

FUZZ = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz")
CORPUS = os.path.join(FUZZ, "corpus")
HARNESSES = sorted(
    name[len("fuzz_") : -len(".py")]
    for name in os.listdir(FUZZ)
    if name.startswith("fuzz_") and name.endswith(".py")
)


def _stand_in_atheris() -> types.ModuleType:
    atheris = types.ModuleType("atheris")
    atheris.instrument_imports = lambda **_: contextlib.nullcontext()
    atheris.core_with_libfuzzer = types.ModuleType("atheris.core_with_libfuzzer")
    return atheris


@pytest.fixture(scope="module")
def harnesses():
    atheris = _stand_in_atheris()
    saved = {k: sys.modules.get(k) for k in ("atheris", "atheris.core_with_libfuzzer")}
    flags = sys.getdlopenflags()  # each harness sets RTLD_GLOBAL for libFuzzer
    sys.modules["atheris"] = atheris
    sys.modules["atheris.core_with_libfuzzer"] = atheris.core_with_libfuzzer
    sys.path.insert(0, FUZZ)
    try:
        loaded = {}
        for name in HARNESSES:
            spec = importlib.util.spec_from_file_location(
                f"fuzz_{name}", os.path.join(FUZZ, f"fuzz_{name}.py")
            )
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            loaded[name] = module.TestOneInput
        yield loaded
    finally:
        sys.setdlopenflags(flags)
        sys.path.remove(FUZZ)
        for key, module in saved.items():
            if module is None:
                sys.modules.pop(key, None)
            else:
                sys.modules[key] = module


def test_every_harness_has_seeds_and_a_run_all_entry():
    sys.path.insert(0, FUZZ)
    try:
        import run_all
    finally:
        sys.path.remove(FUZZ)
    assert sorted(run_all.HARNESSES) == HARNESSES
    for name in HARNESSES:
        assert os.listdir(os.path.join(CORPUS, name)), name


@pytest.mark.parametrize("name", HARNESSES)
def test_seed_corpus_replays(harnesses, name):
    folder = os.path.join(CORPUS, name)
    for seed in sorted(os.listdir(folder)):
        with open(os.path.join(folder, seed), "rb") as f:
            data = f.read()
        try:
            harnesses[name](data)
        except Exception as e:
            raise AssertionError(f"{name} seed {seed}: {e!r}") from e
