"""Every command the README shows runs as written, from a fresh clone.

The commands are read from the README itself, so a command added there is tested here:
- every command of a ```sh block (comments dropped, `\\` continuations joined) and every
  `$ ` line of another block is run and must exit 0;
- an inline code span that is a whole command (`toolshape report`) is run the same way;
- an inline span with placeholders (`toolshape check --config FILE`) is a synopsis: its
  subcommand must exist and each of its flags must be one the subcommand takes;
- `toolshape serve` waits for an agent, so it is not run: the config it names must pass
  `toolshape check` (the skip says so);
- the repository's own scripts (the test suite, conformance, benchmarks) are not run from
  inside the test suite: each must exist and be executable, and a `-k` selection must select
  end-to-end tests (the skip says so);
- installing toolshape (`cargo install`, `pipx`, `uvx`, `npm install -g`) is not run here:
  `packaging/test-install.sh`, which CI runs, installs the same packages built from this
  checkout each of those ways; the skip says so;
- `toolshape init`, `install` and `uninstall` read and rewrite the MCP client configs of the
  machine they run on: `e2e/test_adopt.py` runs them against real client CLIs in a temporary
  home; here their flags are checked against the subcommand's help;
- every repository path the README names, inline or as a link, must exist in the clone, and
  every `--flag` a `toolshape` command of it names must be a flag of some subcommand (flags
  of `cargo`, `codex` and the like are those programs').

A fresh clone is imitated by copying the files git tracks, and nothing else, into an empty
folder (times kept, so `cargo` there reuses this checkout's build through CARGO_TARGET_DIR),
with only the `toolshape` binary on PATH, as `cargo install --path crates/cli` would put it.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import harness
from harness import REPO, TARGET, TOOLSHAPE

README = REPO / "README.md"
# A command that builds with cargo may have to compile in a fresh checkout.
CARGO_TIMEOUT = 900
COMMAND_TIMEOUT = 300

pytestmark = pytest.mark.timeout(CARGO_TIMEOUT + 60)


# ---------------------------------------------------------------------------------------
# Reading the README
# ---------------------------------------------------------------------------------------

FENCE_RE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
SPAN_RE = re.compile(r"`([^`\n]+)`")
LINK_RE = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
# A command: optional VAR=value assignments, then toolshape, cargo or a repository script.
COMMAND_RE = re.compile(r"^(?:[A-Z_][A-Z0-9_]*=\S+\s+)*(?:toolshape|cargo|(?:scripts|e2e|bench)/\S+\.sh)(?:\s|$)")
# Placeholders of a synopsis: FILE, N, JSON_ARGS; [optional]; a|b; (x|y).
PLACEHOLDER_RE = re.compile(r"(?<![\w-])[A-Z][A-Z_]*(?![\w-])|\[|\||\.\.\.")
PATH_RE = re.compile(r"^(?:examples|docs|schema|crates|e2e|bench|scripts|fuzz)/[\w./-]+$")


def readme_parts() -> tuple[list[str], list[str], list[str]]:
    """(commands of the code blocks, inline code spans, link targets)."""
    text = README.read_text()
    commands: list[str] = []
    for lang, body in FENCE_RE.findall(text):
        if lang in ("sh", "bash", "shell", "console"):
            joined = re.sub(r"\\\n\s*", " ", body)
            for line in joined.splitlines():
                line = line.strip()
                if line and not line.startswith("#"):
                    commands.append(line.removeprefix("$ "))
        else:
            commands.extend(line[2:].strip() for line in body.splitlines() if line.startswith("$ "))
    prose = FENCE_RE.sub("", text)
    spans = [s.replace("\\|", "|").strip() for s in SPAN_RE.findall(prose)]
    links = [link for link in LINK_RE.findall(prose) if "://" not in link]
    return commands, spans, links


def is_synopsis(command: str) -> bool:
    return bool(PLACEHOLDER_RE.search(command))


def words_of(command: str) -> list[str]:
    """The words of `command` as the shell reads them, its `# comment` dropped."""
    return shlex.split(command, comments=True)


# Installing toolshape from a package registry or building its release binary.
INSTALL_RE = re.compile(r"^(cargo install|pipx install|uvx |npm install -g|npm i -g)")
# Subcommands that read and rewrite the MCP client configs of the machine.
CLIENT_SUBCOMMANDS = ("init", "install", "uninstall")


def classify(command: str, in_block: bool) -> str:
    """How a command is checked; a command of a code block is run as written, never read
    as a synopsis."""
    words = words_of(command)
    while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
        words = words[1:]
    if not words:
        return "run"
    if re.match(r"^(scripts|e2e|bench)/", words[0]):
        return "script"
    if INSTALL_RE.match(" ".join(words)):
        return "install"
    if words[0] == "toolshape" and words[1:2] and words[1] in CLIENT_SUBCOMMANDS:
        return "client"
    if words[0] == "toolshape" and "serve" in words[1:2]:
        return "agent"
    if is_synopsis(command) and not in_block:
        return "synopsis"
    if words == ["toolshape"] or (words[0] == "toolshape" and len(words) == 2 and not words[1].startswith("-")):
        return "name"
    return "run"


COMMANDS, SPANS, LINKS = readme_parts()
INLINE = [s for s in SPANS if COMMAND_RE.match(s) and s not in ("cargo run",)]
# (command, whether it comes from a code block), each once.
CASES = list(dict.fromkeys([(c, True) for c in COMMANDS] + [(c, False) for c in INLINE if c not in COMMANDS]))


# ---------------------------------------------------------------------------------------
# The fresh clone
# ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The tracked files in an empty folder, a PATH with only `toolshape` added, and a state
    folder for the span log the commands write and `toolshape report` reads."""
    harness.need(TOOLSHAPE, "the toolshape binary")
    root = tmp_path_factory.mktemp("fresh-clone")
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
    ).stdout.decode().split("\0")
    for name in filter(None, tracked):
        source = REPO / name
        if not source.exists():  # deleted in the working tree, not yet committed
            continue
        dest = root / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, dest, follow_symlinks=False)
    bin_dir = tmp_path_factory.mktemp("bin")
    (bin_dir / "toolshape").symlink_to(TOOLSHAPE)
    state = tmp_path_factory.mktemp("state")
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "CARGO_TARGET_DIR": str(TARGET),
        "XDG_STATE_HOME": str(state),
        "TOOLSHAPE_LOG": "warn",
    }
    # The newcomer's path: the quickstart builds and starts the sample with cargo.
    env.pop("TOOLSHAPE_SAMPLE_UPSTREAM", None)
    return {"root": root, "env": env, "state": state}


def run(clone: dict[str, object], command: str) -> subprocess.CompletedProcess[str]:
    """Run `command` with bash in the clone; on a time-out, stop everything it started."""
    timeout = CARGO_TIMEOUT if "cargo " in command else COMMAND_TIMEOUT
    proc = subprocess.Popen(
        ["bash", "-c", command], cwd=clone["root"], env=clone["env"], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, start_new_session=True,
    )
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"`{command}` did not finish within {timeout} s")
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)


def help_text(clone: dict[str, object], subcommand: str) -> str:
    out = run(clone, f"toolshape {subcommand} --help")
    assert out.returncode == 0, f"`toolshape {subcommand}` is not a command: {out.stderr}"
    return out.stdout


def subcommands(clone: dict[str, object]) -> list[str]:
    listing = run(clone, "toolshape --help").stdout
    section = listing.split("Commands:", 1)[1].split("Options:", 1)[0]
    return [line.split()[0] for line in section.splitlines() if line.strip() and line.split()[0] != "help"]


# ---------------------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------------------


def test_the_readme_has_commands_to_check():
    assert len(COMMANDS) >= 5, COMMANDS
    assert any(c.startswith("cargo build") for c in COMMANDS), "the README's first command is gone"


# A command that runs `cargo` may relink the binaries other tests start at that moment (the
# clone shares this checkout's CARGO_TARGET_DIR): it runs alone, after the tests that run
# side by side, as the quickstart's cargo tests do.
CASE_PARAMS = [
    pytest.param(c, b, id=c, marks=[pytest.mark.serial] if "cargo " in c else []) for c, b in CASES
]


@pytest.mark.parametrize(("command", "in_block"), CASE_PARAMS)
def test_readme_command_runs_as_written(clone, command, in_block):
    kind = classify(command, in_block)
    if kind == "script":
        words = shlex.split(command)
        while re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
            words = words[1:]
        script = clone["root"] / words[0]
        assert script.is_file() and os.access(script, os.X_OK), f"{words[0]} is not an executable in the clone"
        if "-k" in words:
            selection = words[words.index("-k") + 1]
            collected = subprocess.run(
                [sys.executable, "-m", "pytest", "--collect-only", "-q", "e2e", "-k", selection],
                cwd=REPO, capture_output=True, text=True, timeout=120,
            )
            tests = [line for line in collected.stdout.splitlines() if "::" in line]
            assert tests, f"`-k {selection}` selects no end-to-end test:\n{collected.stdout[-2000:]}"
            pytest.skip(f"`{command}`: the end-to-end suite itself, not run from inside it "
                        f"(the script exists; `-k {selection}` selects {len(tests)} tests)")
        pytest.skip(f"`{command}`: a suite or benchmark of its own, not run from inside the tests "
                    "(the script exists and is executable)")
    if kind == "install":
        pytest.skip(f"`{command}`: installs toolshape; packaging/test-install.sh (run by CI) installs "
                    "the packages built from this checkout each way the README shows")
    if kind in ("agent", "synopsis", "client"):
        words = words_of(command)
        assert words[0] == "toolshape", command
        known = help_text(clone, words[1])
        for flag in re.findall(r"--[a-z][a-z0-9-]*", " ".join(words)):
            assert re.search(rf"(^|\s){re.escape(flag)}[\s=,]", known, re.M), f"`{command}`: `toolshape {words[1]}` takes no {flag}"
    if kind == "client":
        pytest.skip(f"`{command}`: rewrites this machine's MCP client configs; e2e/test_adopt.py runs "
                    f"it against real clients in a temporary home (its flags are `{words[1]}`'s)")
    if kind == "agent":
        words = words_of(command)
        checked_config = ""
        if "--config" in words and not is_synopsis(words[words.index("--config") + 1]):
            config = words[words.index("--config") + 1]
            checked = run(clone, f"toolshape check --config {shlex.quote(config)}")
            assert checked.returncode == 0, f"{config}: {checked.stdout}{checked.stderr}"
            checked_config = f"; `{config}` passes `toolshape check`"
        pytest.skip(f"`{command}`: serves an agent until stopped, so it needs a running agent "
                    f"(its flags are `serve`'s{checked_config})")
    if kind == "synopsis":
        return
    if kind == "name":
        help_text(clone, " ".join(command.split()[1:]))
        return
    if command.split()[:2] == ["toolshape", "report"] and not (clone["state"] / "toolshape" / "spans.sqlite").exists():
        # The README shows `report` after a call has been made; make one when run alone.
        first_call = next(c for c in COMMANDS if " call " in c)
        assert run(clone, first_call).returncode == 0
    out = run(clone, command)
    assert out.returncode == 0, f"`{command}` exited {out.returncode}:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    if " shape " in f" {command} " or " call " in command:
        assert "<<<tool-result " in out.stdout, out.stdout[:2000]
        assert out.stdout.rstrip().splitlines()[-1].startswith("<<<end "), out.stdout[-500:]


def test_every_path_the_readme_names_is_in_a_fresh_clone(clone):
    named = {s for s in SPANS if PATH_RE.match(s)} | {link for link in LINKS if not link.startswith("#")}
    named |= {w for c in COMMANDS for w in words_of(c) if PATH_RE.match(w)}
    assert named, "the README names no repository path?"
    missing = sorted(p for p in named if not (clone["root"] / p).exists())
    assert not missing, f"the README names files a fresh clone does not have: {missing}"


def test_every_flag_the_readme_names_is_taken_by_a_command(clone):
    helps = "\n".join([run(clone, "toolshape --help").stdout] + [help_text(clone, sub) for sub in subcommands(clone)])
    toolshape_commands = [c for c in SPANS + COMMANDS if re.match(r"^(?:[A-Z_][A-Z0-9_]*=\S+\s+)*toolshape\b", c)]
    flags = {f for c in toolshape_commands for f in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", c.split("#")[0])}
    unknown = sorted(f for f in flags if not re.search(rf"(^|\s){re.escape(f)}[\s=,]", helps, re.M))
    assert not unknown, f"the README names flags no toolshape command takes: {unknown}"
