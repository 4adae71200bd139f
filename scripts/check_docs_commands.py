#!/usr/bin/env python3
"""Runs the shell commands of the documentation as written, against built binaries.

    python3 scripts/check_docs_commands.py BIN_DIR [DOC.md ...]

BIN_DIR is a build directory holding waymesh, server/waymesh-server, server/waymesh-client and
loadtest/waymesh-load. Without DOC arguments it checks README.md, docs/*.md and
loadtest/README.md. Ends with the line "docs: N passed, M failed" (one check per document, plus
one per lint finding) and exits non-zero when anything failed.

Conventions (also in README.md, "Documentation"):
- Every ```sh block is run. The runnable blocks of one document form one bash script, in order
  (they share variables, files and background servers), run with `set -e -o pipefail` in a
  scratch copy of the repository whose ../shared/data is the real test data. The binaries are
  on PATH, and in each build directory the document configures (`cmake ... -B build/X`, also
  inside a `bash scripts/*.sh` it runs) at the places CMake puts them.
- `<!-- docs-check: skip REASON -->` just before a block: not run (the reason is required:
  needs a cluster, a long benchmark, root, ...).
- `<!-- docs-check: setup` ... `-->` just before a block: hidden commands run before it (make
  the example files the block assumes).
- A block whose lines start with "$ " is a transcript: only the "$ " lines run (with their "\\"
  continuations); "$ echo $?" followed by a number states the exit code of the command before.
- A fence without a language whose first line starts like a command (waymesh, cmake, bash,
  build/...) is a finding: tag it ```sh (and skip it if it cannot run here).
- Each document runs in its own network namespace when `unshare -rn` works (so the ports the
  docs use cannot collide with anything), within --timeout seconds; every process it started is
  killed at its end.
"""

import argparse
import glob
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DOCS = ["README.md", *sorted(glob.glob("docs/*.md", root_dir=ROOT)), "loadtest/README.md"]
# Where CMake puts each shipped binary inside a build directory.
BINARIES = {
    "waymesh": "waymesh",  # RUNTIME_OUTPUT_DIRECTORY: the top of the build directory
    "waymesh-server": "server/waymesh-server",
    "waymesh-client": "server/waymesh-client",
    "waymesh-load": "loadtest/waymesh-load",
}
COMMAND_START = re.compile(
    r"^\s*(\$ )?(waymesh(-server|-client|-load)?\s+[-\w]+(\s|$)|(cmake|ninja|bash|python3|docker"
    r"|kubectl|cp|mkdir|curl)\s|build/)")
SKIP = re.compile(r"^<!--\s*docs-check:\s*skip\s+(\S.*?)\s*-->\s*$")
SETUP_OPEN = re.compile(r"^<!--\s*docs-check:\s*setup\s*$")


class Block:
    def __init__(self, doc, line, lang, lines, skip=None, setup=""):
        self.doc, self.line, self.lang, self.lines = doc, line, lang, lines
        self.skip, self.setup = skip, setup

    @property
    def where(self):
        return f"{self.doc}:{self.line}"


def parse_blocks(doc, text):
    """Every fenced block of `text` with the markers just before it."""
    blocks, lines = [], text.split("\n")
    i, pending_skip, pending_setup = 0, None, ""
    while i < len(lines):
        line = lines[i]
        skip = SKIP.match(line.strip())
        if skip:
            pending_skip = skip.group(1)
        elif SETUP_OPEN.match(line.strip()):
            body = []
            i += 1
            while i < len(lines) and lines[i].strip() != "-->":
                body.append(lines[i])
                i += 1
            pending_setup = "\n".join(body)
        elif line.startswith("```"):
            lang = line[3:].strip()
            start, body = i + 1, []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            blocks.append(Block(doc, start, lang, body, pending_skip, pending_setup))
            pending_skip, pending_setup = None, ""
        elif line.strip():
            pending_skip, pending_setup = None, ""  # markers bind to the very next block
        i += 1
    return blocks


def transcript_script(block):
    """The commands of a "$ " transcript, each checked against the exit code it shows."""
    steps, lines, i = [], block.lines, 0  # [command, output lines]
    while i < len(lines):
        if lines[i].startswith("$ "):
            command = lines[i][2:]
            while command.endswith("\\") and i + 1 < len(lines):
                i += 1
                command += "\n" + lines[i]
            steps.append([command, []])
        elif steps:
            steps[-1][1].append(lines[i].strip())
        i += 1
    out = []
    for k, (command, _) in enumerate(steps):
        if command.strip() == "echo $?":
            continue
        expected = 0
        if k + 1 < len(steps) and steps[k + 1][0].strip() == "echo $?":
            shown = steps[k + 1][1][:1]
            expected = int(shown[0]) if shown and shown[0].isdigit() else 0
        out.append(f"set +e\n{command}\n__rc=$?\nset -e\n"
                   f"if [[ $__rc != {expected} ]]; then echo \"docs-check: exit $__rc, the "
                   f"transcript shows {expected}\" >&2; false; fi")
    return "\n".join(out)


def block_script(block):
    body = (transcript_script(block) if any(l.startswith("$ ") for l in block.lines)
            else "\n".join(block.lines))
    parts = [f'__docs_block={shlex.quote(block.where)}']
    if block.setup:
        parts.append(block.setup)
    parts.append(body)
    return "\n".join(parts)


def configured_build_dirs(blocks):
    """Build directories the document configures, directly or through a script it runs."""
    dirs = set()
    for block in blocks:
        text = "\n".join(block.lines)
        dirs.update(re.findall(r"-B\s+(build/[\w.-]+)", text))
        for script in re.findall(r"bash\s+(scripts/[\w.-]+\.sh)", text):
            path = os.path.join(ROOT, script)
            if os.path.exists(path):
                source = open(path).read()
                dirs.update(re.findall(r"-B\s+(build/[\w.-]+)", source))
                dirs.update(re.findall(r":-(build/[\w.-]+)\}", source))
    return dirs


def lint(doc, blocks):
    """Findings: commands outside ```sh blocks, build dirs the document never configures."""
    findings = []
    for b in blocks:
        if b.lang == "" and b.lines and COMMAND_START.match(b.lines[0]):
            findings.append(f"{b.where}: commands in a fence without a language: tag it ```sh "
                            "(and mark it skip with a reason if it cannot run here)")
        if b.lang == "sh" and b.skip is not None and not b.skip.strip():
            findings.append(f"{b.where}: docs-check skip without a reason")
    configured = configured_build_dirs(blocks)
    for b in blocks:
        if b.lang != "sh" or b.skip is not None:
            continue
        text = "\n".join(b.lines)
        for used in sorted(set(re.findall(r"(?:^|[\s=\"'(])(build/[\w.-]+)/", text, re.M))):
            if used not in configured:
                findings.append(f"{b.where}: uses {used}/ but {doc} never configures it "
                                f"(cmake -S . -B {used} ...)")
    return findings


def copy_tree(dst):
    """The working tree's files (tracked and new, not ignored) copied under `dst`, once."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                           check=True, capture_output=True).stdout.decode().split("\0")
    for f in filter(None, files):
        src = os.path.join(ROOT, f)
        if os.path.isfile(src):  # not deleted in the working tree
            os.makedirs(os.path.dirname(os.path.join(dst, f)), exist_ok=True)
            shutil.copy2(src, os.path.join(dst, f))


def make_scratch(tree, bin_dir, scratch, build_dirs):
    """A copy of `tree` (hard links: cheap; docs replace files, they do not write into tracked
    ones), the data beside it, the binaries in place."""
    repo = os.path.join(scratch, "waymesh")
    subprocess.run(["cp", "-al", tree, repo], check=True)
    data = os.path.join(os.path.dirname(ROOT), "shared")
    if os.path.isdir(data):
        os.symlink(data, os.path.join(scratch, "shared"))
    path_dir = os.path.join(scratch, "bin")
    os.makedirs(path_dir)
    for name, rel in BINARIES.items():
        binary = os.path.join(bin_dir, rel)
        if not os.path.exists(binary):
            raise SystemExit(f"check_docs_commands: {binary} is missing (build {name} first)")
        os.symlink(binary, os.path.join(path_dir, name))
        for build in build_dirs:
            dst = os.path.join(repo, build, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            os.symlink(binary, dst)
    return repo, path_dir


def isolate_network():
    """The command prefix that gives a document its own loopback, if this machine allows it."""
    probe = ["unshare", "-rn", "sh", "-c", "ip link set lo up"]
    try:
        if subprocess.run(probe, capture_output=True, timeout=10).returncode == 0:
            return ["unshare", "-rn", "sh", "-c", 'ip link set lo up && exec "$@"', "sh"]
    except (OSError, subprocess.TimeoutExpired):
        pass
    return []


def run_document(doc, blocks, tree, bin_dir, timeout, isolation):
    runnable = [b for b in blocks if b.lang == "sh" and b.skip is None]
    if not runnable:
        return True, "no runnable blocks", 0.0
    with tempfile.TemporaryDirectory(prefix="docs-check-") as scratch:
        repo, path_dir = make_scratch(tree, bin_dir, scratch, configured_build_dirs(blocks))
        script = "\n".join(
            ["set -eE -o pipefail",
             "trap 'echo \"docs-check: FAILED in the block at $__docs_block: exit $?: "
             "$BASH_COMMAND\" >&2' ERR",
             *[block_script(b) for b in runnable]])
        env = dict(os.environ, PATH=f"{path_dir}:{os.environ.get('PATH', '/usr/bin:/bin')}",
                   WAYMESH_DATA=os.path.join(scratch, "shared", "data"))
        start = time.monotonic()
        proc = subprocess.Popen([*isolation, "bash", "-c", script], cwd=repo, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            output, _ = proc.communicate(timeout=timeout)
            ok = proc.returncode == 0
        except subprocess.TimeoutExpired:
            ok = False
            output = b"docs-check: timed out after %d s\n" % timeout
        finally:
            # Servers the document started in the background die with it.
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
        return ok, output.decode(errors="replace"), time.monotonic() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("bin_dir")
    parser.add_argument("docs", nargs="*")
    parser.add_argument("--timeout", type=int, default=90, help="seconds per document")
    args = parser.parse_args()
    bin_dir = os.path.abspath(args.bin_dir)
    isolation = isolate_network()
    if not isolation:
        print("docs-check: no network namespace (unshare -rn); using this host's ports")
    passed = failed = 0
    template = tempfile.TemporaryDirectory(prefix="docs-check-tree-")
    tree = os.path.join(template.name, "waymesh")
    copy_tree(tree)
    for doc in args.docs or DEFAULT_DOCS:
        blocks = parse_blocks(doc, open(os.path.join(ROOT, doc)).read())
        for finding in lint(doc, blocks):
            print(f"FAIL {finding}")
            failed += 1
        ok, output, seconds = run_document(doc, blocks, tree, bin_dir, args.timeout, isolation)
        skipped = sum(1 for b in blocks if b.lang == "sh" and b.skip is not None)
        if ok:
            passed += 1
            print(f"PASS {doc} ({seconds:.1f} s, {skipped} blocks skipped)")
        else:
            failed += 1
            print(f"FAIL {doc} ({seconds:.1f} s)")
            print("\n".join("    " + l for l in output.rstrip().split("\n")[-40:]))
    template.cleanup()
    print(f"docs: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
