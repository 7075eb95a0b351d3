"""`toolshape doctor`: it starts every upstream and finds what `check` cannot, each planted
problem once, with exit code 1; on a sound config it passes and prints the surface's cost."""

from __future__ import annotations

import subprocess

import harness

BROKEN = """\
upstreams:
  tracker:
    command: [{sample}]
  ghost:
    command: [nosuch-binary-for-doctor]
  crashy:
    command: [sh, -c, "echo 'fatal: missing API key' >&2; exit 2"]
masks:
  - name: issues
    handler: tracker/list_issue
    description: Issues.
  - name: labelled
    handler: tracker/list_issues
    description: Issues with a label.
    input_schema:
      type: object
      properties:
        label: {{ type: string }}
    handler_input:
      label: "{{{{ input.label | nosuchfilter }}}}"
  - name: tested
    handler: tracker/list_issues
    description: Issues, tested.
    input_schema:
      type: object
      properties:
        label: {{ type: string }}
    handler_input:
      state: "{{% if input.label is nosuchtest %}}open{{% else %}}closed{{% endif %}}"
  - name: fine
    handler: tracker/list_issues
    description: All issues.
    handler_input:
      state: open
"""


def doctor(tmp_path, text: str) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "doctor.yaml"
    config.write_text(text)
    harness.need(harness.TOOLSHAPE, "the toolshape binary")
    return subprocess.run(
        [str(harness.TOOLSHAPE), "doctor", "--config", str(config)],
        cwd=tmp_path, env=harness.base_env(), capture_output=True, text=True, timeout=120,
    )


def test_each_planted_problem_is_reported_once(tmp_path):
    out = doctor(tmp_path, BROKEN.format(sample=harness.SAMPLE))
    assert out.returncode == 1, out.stdout + out.stderr
    failures = [line.strip() for line in out.stdout.splitlines() if line.strip().startswith("FAIL")]
    expected = {
        "ghost": "cannot start `nosuch-binary-for-doctor`",
        "crashy": "crashy:",
        "issues": "has no tool `list_issue`",
        "labelled": "filter nosuchfilter is unknown",
        "tested": "test nosuchtest is unknown",
    }
    assert len(failures) == len(expected), out.stdout
    for name, needle in expected.items():
        hits = [f for f in failures if f.startswith(f"FAIL  {name}:") and needle in f]
        assert len(hits) == 1, f"{name}: {hits}\n{out.stdout}"
    assert "did you mean `list_issues`" in out.stdout
    assert "stderr: fatal: missing API key" in out.stdout
    assert "ok    tracker: started in" in out.stdout and "ok    fine" in out.stdout
    assert "5 problems found" in out.stderr


def test_a_sound_config_passes_with_its_costs(tmp_path):
    sound = "upstreams:\n  tracker:\n    command: [{}]\n".format(harness.SAMPLE)
    out = doctor(tmp_path, sound)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "as the upstreams publish it:" in out.stdout and "after masking:" in out.stdout
    assert "no problems found" in out.stdout
