#!/usr/bin/env python3
"""Runs every NovaMD command that README.md and docs/*.md show, shortened, and fails naming the
file, line, command and its output where one does not do what the page says.

    check_docs_commands.py --novamd build/novamd [--source .] [--list] [-v] [FILE.md ...]

Which commands (the rule authors write to):

* Fenced code blocks only. In a block marked `sh`, `bash`, `shell` or `zsh` every line is a
  command (comments and blank lines aside; a line ending in `\\` continues on the next, a here
  document (`<<'EOF'`) belongs to its command, and `for`/`while`/`if` run to their
  `done`/`fi` as one command). In any other block (`console`, `text`, none) only lines starting
  with `$ ` are commands, and the lines below one, up to the next, are its output. Blocks in
  other languages (`yaml`, `python`, `cpp`) are not run.
* A NovaMD command is one that runs `novamd` (`novamd`, `build/novamd`, `../build/novamd`,
  `$NOVAMD_SRC/build/novamd`, ...), `python -m novamd` (run where --python-package names the
  built package), or a Python script of the repository
  (`scripts/plot.py`, `examples/.../*.py`, `benchmarks/.../*.py`), directly or through
  `python`/`python3`, optionally after `VAR=value` assignments. A block with one is run command
  by command, in order, in one working folder per page; of its other commands only those that
  make files and folders (`cd`, `mkdir`, `cat > FILE <<'EOF'`, `tail`, `head`, `cp`, `mv`, `ln`,
  `rm`, `ls`, `echo`, `export`) are run; others (`scripts/setup.sh`, `cmake`, `ctest`, `pip`,
  `mpirun`, `lmp`, ...) are not, and in a chain `a && b` only their part is left out.
* Where the shown output contains `novamd: error:` the command must fail with exit code 2; where
  it contains `novamd: run stopped:`, with exit code 1; any other must exit with 0.
* To keep a block from being run, put `<!-- docs-check: skip (the reason) -->` on the line(s)
  just before its opening fence; the reason is required. Use it sparingly: for commands that
  stand for the reader's own files, or that need what CI lacks (a GPU, hours).
* A `python` block preceded by `<!-- docs-check: python -->` is run too, with the page's
  working folder as its current folder, after the commands above it.

How they are run: each page gets a folder that looks like the repository (its files linked,
`build/novamd` a stand-in), is the current folder at the start, and is `$NOVAMD_SRC` (and
`/path/to/NovaMD`, the docs' placeholder, is replaced by it); `novamd` and `python3` on the
`PATH` are the stand-ins. The stand-in shortens `novamd run` to 10 steps (20 after `--restart`,
to go past the checkpoint of a shortened run; a run asked for fewer keeps them) and sets each
analysis's `start` to 0, so that it samples; `novamd bench` to `--steps 1 --warmup 0` at one
small size (unless sizes are given); `python -m novamd run` gets `--steps 10` where it has none;
everything else runs as shown.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

RUN_STEPS = 10
RESTART_STEPS = 20
BENCH_SIZES = {"yukawa": "1152", "lj": "500", "pasta": "500", "ornl": None, "rigid": None}
SHELL_LANGUAGES = {"sh", "bash", "shell", "zsh"}
HELPERS = {"cd", "mkdir", "cat", "tail", "head", "cp", "mv", "ln", "rm", "ls", "echo", "export",
           "true", "test", "["}
SKIP_MARK = re.compile(r"<!--\s*docs-check:\s*skip\s*(?:\((.*)\))?\s*-->")
PYTHON_MARK = re.compile(r"<!--\s*docs-check:\s*python\s*-->")
ANY_MARK = re.compile(r"<!--\s*docs-check:")
PLACEHOLDER = "/path/to/NovaMD"
COMMAND_TIMEOUT = 300


# --- finding the commands ---------------------------------------------------------------------

class Command:
    """One command of a page: its text, where it is, what it must exit with."""

    def __init__(self, path, line, text, expect=0, kind="shell"):
        self.path, self.line, self.text, self.expect, self.kind = path, line, text, expect, kind

    def where(self):
        return f"{self.path}:{self.line}"


class DocsError(Exception):
    """A page that breaks the rule itself (a skip mark without a reason, an open fence)."""


def fenced_blocks(path, lines):
    """(language, first line number of the body, body lines, marks before the fence)."""
    blocks = []
    i = 0
    while i < len(lines):
        match = re.match(r"^(\s*)(```+|~~~+)\s*([\w+-]*)", lines[i])
        if not match:
            i += 1
            continue
        indent, fence, language = match.group(1), match.group(2), match.group(3).lower()
        start = i
        body = []
        i += 1
        while i < len(lines) and not re.match(r"^\s*" + re.escape(fence) + r"\s*$", lines[i]):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        if i >= len(lines):
            raise DocsError(f"{path}:{start + 1}: a code block that is never closed")
        i += 1
        marks = []
        j = start - 1
        while j >= 0 and (not lines[j].strip() or ANY_MARK.search(lines[j])):
            if ANY_MARK.search(lines[j]):
                marks.append((j + 1, lines[j].strip()))
            j -= 1
        blocks.append((language, start + 2, body, marks))
    return blocks


def command_units(body, first_line):
    """The commands of a shell block: (line number, text), with continuations, here documents
    and for/while/if compounds joined."""
    units = []
    i = 0
    while i < len(body):
        line = body[i]
        number = first_line + i
        if not line.strip() or line.lstrip().startswith("#"):
            i += 1
            continue
        text = line
        while text.rstrip().endswith("\\") and i + 1 < len(body):
            i += 1
            text = text.rstrip()[:-1] + " " + body[i].strip()
        heredoc = re.search(r"<<-?\s*(['\"]?)(\w+)\1", text)
        if heredoc:
            end = heredoc.group(2)
            while i + 1 < len(body):
                i += 1
                text += "\n" + body[i]
                if body[i].strip() == end:
                    break
        opener = first_word(text)
        if opener in ("for", "while", "until", "if"):
            closer = "fi" if opener == "if" else "done"
            depth = 0
            while True:
                depth += len(re.findall(r"(?:^|[;\s])(for|while|until|if)\s", text.split("\n")[-1]))
                depth -= len(re.findall(r"(?:^|[;\s])" + closer + r"(?:$|[;\s])",
                                        text.split("\n")[-1]))
                if depth <= 0 or i + 1 >= len(body):
                    break
                i += 1
                text += "\n" + body[i]
        units.append((number, text))
        i += 1
    return units


def first_word(text):
    """The program a command starts with, after VAR=value assignments."""
    try:
        words = shlex.split(text.split("\n")[0], comments=True)
    except ValueError:
        words = text.split()
    for word in words:
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", word):
            continue
        return word
    return ""


def is_novamd_segment(segment):
    """Whether a simple command runs novamd, python -m novamd or a repository script."""
    try:
        words = shlex.split(segment, comments=True)
    except ValueError:
        words = segment.split()
    words = [w for w in words if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", w)]
    if not words:
        return False
    program = words[0]
    if program == "novamd" or program.endswith("/novamd"):
        return True
    if re.search(r"(^|/)(scripts|examples|benchmarks)/.*\.py$", program):
        return True
    if os.path.basename(program) in ("python", "python3"):
        rest = words[1:]
        if rest[:2] == ["-m", "novamd"]:
            return True
        return bool(rest) and bool(re.search(r"(^|/)(scripts|examples|benchmarks)/.*\.py$",
                                             rest[0]))
    return False


def segments(text):
    """The parts of a one-line command chained by &&."""
    return [part.strip() for part in re.split(r"\s&&\s", text)]


def runnable(text):
    """(the text to run, whether it has a NovaMD command), or (None, False) for a command that is
    not run."""
    if "\n" in text or first_word(text) in ("for", "while", "until", "if"):
        return text, is_novamd_segment_anywhere(text)
    kept, novamd = [], False
    for part in segments(text):
        if is_novamd_segment(part):
            kept.append(part)
            novamd = True
        elif first_word(part) in HELPERS:
            kept.append(part)
    if not kept:
        return None, False
    return " && ".join(kept), novamd


def is_novamd_segment_anywhere(text):
    for line in text.split("\n"):
        for part in re.split(r"\s&&\s|;", line):
            part = re.sub(r"^\s*(then|else|do)\s+", "", part.strip())
            if is_novamd_segment(part):
                return True
    return False


def expected_exit(output_lines):
    text = "\n".join(output_lines)
    if "novamd: error:" in text:
        return 2
    if "novamd: run stopped:" in text:
        return 1
    return 0


def commands_of(path, display):
    """The commands of one page, in order."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    found = []
    for language, first_line, body, marks in fenced_blocks(display, lines):
        skip = [m for m in marks if SKIP_MARK.search(m[1])]
        for number, mark in marks:
            if not (SKIP_MARK.search(mark) or PYTHON_MARK.search(mark)):
                raise DocsError(f"{display}:{number}: unknown docs-check mark '{mark}'; expected "
                                "<!-- docs-check: skip (reason) --> or <!-- docs-check: python -->")
            match = SKIP_MARK.search(mark)
            if match and not (match.group(1) or "").strip():
                raise DocsError(f"{display}:{number}: a docs-check skip mark needs a reason: "
                                "<!-- docs-check: skip (why) -->")
        if skip:
            continue
        if language == "python":
            if any(PYTHON_MARK.search(m[1]) for m in marks):
                found.append(Command(display, first_line, "\n".join(body), 0, "python"))
            continue
        if language in SHELL_LANGUAGES:
            block = [Command(display, n, t) for n, t in command_units(body, first_line)]
        elif language in ("", "console", "text", "shell-session"):
            block = []
            for k, line in enumerate(body):
                if line.startswith("$ "):
                    block.append([first_line + k, line[2:], []])
                elif block:
                    block[-1][2].append(line)
            block = [Command(display, n, t, expected_exit(out)) for n, t, out in block]
        else:
            continue
        prepared = []
        for command in block:
            text, novamd = runnable(command.text)
            if text is not None:
                command.text = text
                command.novamd = novamd
                prepared.append(command)
        if any(c.novamd for c in prepared):
            found += prepared
    return found


# --- the stand-in for novamd ------------------------------------------------------------------

def option_value(args, name):
    """The value of --name V or --name=V, or None."""
    for k, arg in enumerate(args):
        if arg == name and k + 1 < len(args):
            return args[k + 1]
        if arg.startswith(name + "="):
            return arg[len(name) + 1:]
    return None


def without_option(args, name, values=1):
    """args without --name and its values (or --name=V)."""
    out, k = [], 0
    while k < len(args):
        if args[k] == name:
            k += 1 + values
            continue
        if args[k].startswith(name + "="):
            k += 1
            continue
        out.append(args[k])
        k += 1
    return out


def steps_asked(args):
    """The last step a `novamd run` asks for on its command line, or None."""
    value = option_value(args, "--steps")
    for k, arg in enumerate(args):
        if arg == "--set" and k + 1 < len(args) and args[k + 1].startswith("run.steps="):
            value = args[k + 1].split("=", 1)[1]
    try:
        return int(float(value)) if value is not None else None
    except ValueError:
        return None


def analysis_keys(config):
    """The analyses (rdf, structure_factor, msd) a config file has."""
    try:
        with open(config) as f:
            text = f.read()
    except OSError:  # an unreadable config: novamd reports it
        return []
    try:
        import yaml
        document = yaml.safe_load(text)
        return sorted((document or {}).get("analysis") or {})
    except ImportError:  # without PyYAML: the keys of a top-level `analysis:` block
        match = re.search(r"(?ms)^analysis:(.*?)(?=^\S|\Z)", text)
        return sorted(k for k in ("rdf", "structure_factor", "msd")
                      if match and re.search(r"(^|[\s{,])" + k + r":", match.group(1)))
    except Exception:  # a config that does not read: novamd reports it
        return []


def shortened(args):
    """The arguments of a novamd command, shortened (see the module's documentation)."""
    if not args:
        return args
    if args[0] == "run":
        asked = steps_asked(args)
        limit = RESTART_STEPS if option_value(args, "--restart") else RUN_STEPS
        positional = [a for a in args[1:] if not a.startswith("-")]
        config = positional[0] if positional else None
        out = without_option(args, "--steps")
        steps = limit if asked is None or asked > limit else asked
        out += ["--steps", str(steps)]
        if config and os.path.isfile(config):
            for key in analysis_keys(config):
                out += ["--set", f"analysis.{key}.start=0"]
        return out
    if args[0] == "bench":
        out = without_option(without_option(args, "--steps"), "--warmup")
        out += ["--steps", "1", "--warmup", "0"]
        case = option_value(args, "--case") or "yukawa"
        if option_value(args, "--sizes") is None and BENCH_SIZES.get(case):
            out += ["--sizes", BENCH_SIZES[case]]
        return out
    return args


def shortened_python_module(text):
    """`python -m novamd run ...` shortened as the stand-in shortens `novamd run` (to RUN_STEPS
    steps where it asks for no --steps; its trailing comment dropped)."""
    def shorten(match):
        command = re.sub(r"\s+#.*$", "", match.group(0))
        return command if "--steps" in command else command + f" --steps {RUN_STEPS}"
    return re.sub(r"(?m)python3?\s+-m\s+novamd\s+run\b[^\n;&|]*", shorten, text)


def stand_in(real, args):
    """Runs the real novamd with the arguments shortened (exec: does not return)."""
    command = [real] + shortened(args)
    log = os.environ.get("NOVAMD_DOCS_CHECK_LOG")
    if log:
        with open(log, "a") as f:
            f.write("  as: novamd " + " ".join(shlex.quote(a) for a in command[1:]) + "\n")
    os.execv(real, command)


# --- the page's folder ------------------------------------------------------------------------

def make_view(source, root, novamd, python_package):
    """A folder that looks like the repository: its top-level entries linked, build/novamd the
    stand-in; ROOT/bin holds python3 and python (this Python)."""
    view = os.path.join(root, "NovaMD")
    os.makedirs(os.path.join(view, "build"))
    for name in os.listdir(source):
        if name.startswith(("build", ".")) or name in ("runs", "Testing"):
            continue  # build outputs, git and the runs of a working copy stay out
        os.symlink(os.path.join(source, name), os.path.join(view, name))
    here = os.path.abspath(__file__)
    stand_in_script = (f"#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(here)} "
                       f"--stand-in {shlex.quote(novamd)} \"$@\"\n")
    python_script = f"#!/bin/sh\nexec {shlex.quote(sys.executable)} \"$@\"\n"
    os.makedirs(os.path.join(root, "bin"))
    for path, text in ((os.path.join(view, "build", "novamd"), stand_in_script),
                       (os.path.join(root, "bin", "python3"), python_script),
                       (os.path.join(root, "bin", "python"), python_script)):
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)
    if python_package and os.path.isdir(python_package):
        os.symlink(python_package, os.path.join(view, "build", "python"))
    os.makedirs(os.path.join(root, "tmp"))
    return view


def run_page(commands, source, novamd, python_package, verbose):
    """Runs one page's commands in order; returns the failures (messages)."""
    failures = []
    root = tempfile.mkdtemp(prefix="novamd-docs-check-")
    try:
        view = make_view(source, root, novamd, python_package)
        state = os.path.join(root, "state.sh")
        log = os.path.join(root, "stand-in.log")
        with open(state, "w") as f:
            f.write(f"cd {shlex.quote(view)}\n")
        env = dict(os.environ)
        env.update({
            "NOVAMD_SRC": view, "TMPDIR": os.path.join(root, "tmp"), "OMP_NUM_THREADS": "2",
            "OMP_WAIT_POLICY": "PASSIVE", "NOVAMD_DOCS_CHECK_LOG": log, "MPLBACKEND": "Agg",
            "PATH": os.pathsep.join([os.path.join(view, "build"), os.path.join(root, "bin"),
                                     env.get("PATH", "")]),
        })
        if python_package:
            env["PYTHONPATH"] = python_package + os.pathsep + env.get("PYTHONPATH", "")
        for command in commands:
            if not python_package and re.search(r"python3?\s+-m\s+novamd", command.text):
                if verbose:
                    print(f"{command.where()}: not run (no --python-package): {command.text}")
                continue
            text = command.text.replace(PLACEHOLDER, view)
            text = shortened_python_module(text)
            if command.kind == "python":
                script = os.path.join(root, "snippet.py")
                with open(script, "w") as f:
                    f.write(text + "\n")
                text = f"{shlex.quote(sys.executable)} {shlex.quote(script)}"
            open(log, "w").close()
            wrapped = (f"source {shlex.quote(state)}\n{text}\n__rc=$?\n"
                       f"{{ export -p; echo \"cd $(printf %q \"$PWD\")\"; }} > {shlex.quote(state)}\n"
                       "exit $__rc\n")
            started = time.monotonic()
            try:
                result = subprocess.run(["bash", "-c", wrapped], env=env, capture_output=True,
                                        text=True, timeout=COMMAND_TIMEOUT,
                                        stdin=subprocess.DEVNULL)
                code, out, err = result.returncode, result.stdout, result.stderr
            except subprocess.TimeoutExpired as timeout:
                code, out, err = "timeout", timeout.stdout or "", f"killed after {COMMAND_TIMEOUT} s"
                out = out if isinstance(out, str) else out.decode(errors="replace")
            seconds = time.monotonic() - started
            with open(log) as f:
                shortened_as = f.read()
            if verbose:
                head = command.text.split("\n")[0] + (" ..." if "\n" in command.text else "")
                print(f"{command.where()}: exit {code} ({seconds:.1f} s): {head}\n"
                      f"{shortened_as}", end="" if shortened_as.endswith("\n") else "\n")
            if code != command.expect:
                want = "exit code 0" if command.expect == 0 else f"exit code {command.expect}"
                failures.append(
                    f"{command.where()}: expected {want}, got {code}:\n    {command.text}\n"
                    f"{shortened_as}"
                    f"  stderr:\n{indent(err)}\n  stdout (last lines):\n"
                    f"{indent(chr(10).join(out.splitlines()[-15:]))}")
                if command.expect == 0 and command.kind == "shell" and "cd " in command.text:
                    break  # the following commands would run in the wrong folder
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return failures


def indent(text):
    return "\n".join("    " + line for line in text.splitlines()) or "    (nothing)"


def pages(source, named):
    if named:
        return [os.path.abspath(p) for p in named]
    docs = os.path.join(source, "docs")
    return [os.path.join(source, "README.md")] + sorted(
        os.path.join(docs, name) for name in os.listdir(docs) if name.endswith(".md"))


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--stand-in":
        stand_in(sys.argv[2], sys.argv[3:])
    parser = argparse.ArgumentParser(
        description="Run the NovaMD commands of README.md and docs/*.md, shortened.")
    parser.add_argument("files", nargs="*", metavar="FILE.md",
                        help="pages to check (default: README.md and docs/*.md)")
    parser.add_argument("--novamd", help="the novamd binary (default: SOURCE/build/novamd)")
    parser.add_argument("--source", default=os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), help="the repository (default: this script's)")
    parser.add_argument("--python-package", help="folder holding the built `novamd` package "
                        "(build/python), for `python -m novamd`")
    parser.add_argument("--list", action="store_true", help="list the commands, run nothing")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each command run")
    args = parser.parse_args()
    source = os.path.abspath(args.source)
    if args.python_package:
        args.python_package = os.path.abspath(args.python_package)
    novamd = os.path.abspath(args.novamd or os.path.join(source, "build", "novamd"))

    try:
        found = [(page, commands_of(page, os.path.relpath(page, source)))
                 for page in pages(source, args.files)]
    except DocsError as error:
        print(f"check_docs_commands: {error}", file=sys.stderr)
        return 1
    if args.list:
        for _, commands in found:
            for c in commands:
                expect = f" (exit {c.expect})" if c.expect else ""
                print(f"{c.where()}{expect}: {c.text}")
        return 0
    if not os.access(novamd, os.X_OK):
        print(f"check_docs_commands: {novamd}: not an executable novamd", file=sys.stderr)
        return 1
    failures, count = [], 0
    for page, commands in found:
        if commands:
            count += len(commands)
            failures += run_page(commands, source, novamd, args.python_package, args.verbose)
    for failure in failures:
        print(failure + "\n", file=sys.stderr)
    print(f"check_docs_commands: {count} commands from {len(found)} pages, "
          f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
