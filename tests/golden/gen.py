"""Generate expected outputs for case files from the real thing (CPython, or PyTorch via torch-golden).

A case file holds many small programs, each starting with a line `# %% name`:

    # %% add_ints
    print(1 + 2)

Each case runs in a fresh process (forked after the imports, so global state such as the
random generator starts as in a new interpreter). Its expected output is its stdout; if it
raises, the last line(s) of the traceback (`traceback.format_exception_only`) follow, exactly
the lines Python prints last. Output goes to FILE with `.py` replaced by `.expected`.

    python3 tests/golden/gen.py tests/conformance/*.py
    ../shared/tools/torch-golden tests/golden/gen.py tests/golden/printing.py
"""
import io
import os
import sys
import traceback
import types
import warnings

MARK = "# %% "


def split_cases(text):
    cases, name, lines = [], None, []
    for line in text.splitlines(keepends=True):
        if line.startswith(MARK):
            if name is not None:
                cases.append((name, "".join(lines)))
            name, lines = line[len(MARK):].strip(), []
        elif name is not None:
            lines.append(line)
    if name is not None:
        cases.append((name, "".join(lines)))
    return cases


def run_case(code):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        out = io.StringIO()
        sys.stdout = out
        warnings.simplefilter("ignore")
        # the case runs as a script's __main__ module (pickle finds its classes there)
        main = types.ModuleType("__main__")
        sys.modules["__main__"] = main
        try:
            exec(compile(code, "<case>", "exec"), main.__dict__)
        except BaseException as e:  # noqa: BLE001 - the case's own error is its output
            out.write("".join(traceback.format_exception_only(type(e), e)))
        with os.fdopen(w, "w") as f:
            f.write(out.getvalue())
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        data = f.read()
    os.waitpid(pid, 0)
    return data


def main():
    # cudalearn's own modules (cudalearn.datasets), as plain Python over the same assets.
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "shim"))
    try:
        import torch  # noqa: F401 - imported once before forking when available
    except ImportError:
        pass
    for path in sys.argv[1:]:
        with open(path) as f:
            cases = split_cases(f.read())
        names = [n for n, _ in cases]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            sys.exit(f"{path}: duplicate case names {sorted(dup)}")
        parts = []
        for name, code in cases:
            out = run_case(code)
            if out and not out.endswith("\n"):
                out += "\n"
            parts.append(f"{MARK}{name}\n{out}")
        dest = path[:-3] + ".expected"
        with open(dest, "w") as f:
            f.write("".join(parts))
        print(f"{dest}: {len(cases)} cases")


if __name__ == "__main__":
    main()
