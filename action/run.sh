#!/usr/bin/env bash
# The step of action.yml: install servelint, write SARIF, annotate, summarise.
#
# Reads the INPUT_* variables action.yml sets and what GitHub sets for every
# step: GITHUB_WORKSPACE (the files are checked from there, so paths in the
# annotations and the SARIF are relative to the repository), GITHUB_OUTPUT,
# GITHUB_STEP_SUMMARY (optional), RUNNER_TEMP, GITHUB_ACTION_PATH.  Exit
# status: servelint's (0, 1 at --fail-on, 2 on an error).
set -uo pipefail

fail() { echo "::error title=servelint::$*"; exit 2; }

: "${GITHUB_WORKSPACE:?set by GitHub}" "${GITHUB_OUTPUT:?set by GitHub}" "${RUNNER_TEMP:?set by GitHub}"
ACTION_PATH="${GITHUB_ACTION_PATH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"

case "${INPUT_FAIL_ON:=error}" in
  error|warning|information|hint|never) ;;
  *) fail "fail-on must be error, warning, information, hint or never (got '$INPUT_FAIL_ON')" ;;
esac

# -- servelint --------------------------------------------------------------
if [[ "${INPUT_INSTALL:-true}" == "false" ]]; then
  SERVELINT="$(command -v servelint)" || fail "install is false but no servelint is on PATH"
else
  case "${INPUT_VERSION:-action}" in
    action|"") spec="$ACTION_PATH" ;;
    [0-9]*) spec="servelint==$INPUT_VERSION" ;;
    *) spec="$INPUT_VERSION" ;;
  esac
  venv="$RUNNER_TEMP/servelint-venv"
  # Reused when the same thing was installed before (a second step in the job).
  if [[ ! -f "$venv/.servelint-spec" || "$(cat "$venv/.servelint-spec")" != "$spec" ]]; then
    echo "::group::Install servelint ($spec)"
    rm -rf "$venv"
    "${INPUT_PYTHON:-python3}" -m venv "$venv" || fail "cannot create a virtual environment with ${INPUT_PYTHON:-python3}"
    py="$venv/bin/python"
    [[ -x "$py" ]] || py="$venv/Scripts/python.exe"  # Windows runners
    "$py" -m pip install --quiet --disable-pip-version-check "$spec" || fail "pip install $spec failed"
    echo "$spec" >"$venv/.servelint-spec"
    echo "::endgroup::"
  fi
  SERVELINT="$venv/bin/servelint"
  [[ -x "$SERVELINT" ]] || SERVELINT="$venv/Scripts/servelint.exe"
fi
"$SERVELINT" --version

# -- the check --------------------------------------------------------------
cd "$GITHUB_WORKSPACE" || fail "no workspace at $GITHUB_WORKSPACE"
read -r -d '' -a paths <<<"${INPUT_PATHS:-.}" || true
read -r -d '' -a args <<<"${INPUT_ARGS:-}" || true
[[ -n "${INPUT_VLLM_VERSION:-}" ]] && args+=(--vllm-version "$INPUT_VLLM_VERSION")
(( ${#paths[@]} )) || paths=(.)
# ${a[@]+"${a[@]}"}: an empty array under `set -u` in macOS' bash 3.2.
check() { "$SERVELINT" check ${args[@]+"${args[@]}"} "$@" "${paths[@]}"; }

# A directory is walked as "./x/y"; GitHub matches annotations and SARIF
# locations against the repository's paths, "x/y".
sarif="${INPUT_SARIF:-}"
py="$(dirname "$SERVELINT")/python"
[[ -x "$py" ]] || py="${INPUT_PYTHON:-python3}"
if [[ -n "$sarif" ]]; then
  mkdir -p "$(dirname "$sarif")"
  check --format sarif --fail-on never >"$sarif.tmp"
  status=$?
  (( status == 0 )) || fail "servelint check --format sarif exited with $status"
  "$py" - "$sarif.tmp" "$sarif" <<'PY' || fail "cannot write $sarif"
import json, sys

def strip(node):
    if isinstance(node, dict):
        uri = node.get("uri")
        if isinstance(uri, str) and uri.startswith("./"):
            node["uri"] = uri[2:]
        for value in node.values():
            strip(value)
    elif isinstance(node, list):
        for value in node:
            strip(value)

with open(sys.argv[1], encoding="utf-8") as fh:
    report = json.load(fh)
strip(report)
with open(sys.argv[2], "w", encoding="utf-8") as fh:
    json.dump(report, fh, indent=2, ensure_ascii=False)
PY
  rm -f "$sarif.tmp"
fi

# Workflow commands on stdout become annotations on the files.
check --format github --fail-on "$INPUT_FAIL_ON" | sed -e 's/^\(::[a-z]* file=\)\.\//\1/'
status=${PIPESTATUS[0]}

# -- outputs and the job summary --------------------------------------------
findings=""
if [[ -n "$sarif" ]]; then
  findings="$("$py" - "$sarif" "${GITHUB_STEP_SUMMARY:-}" <<'PY'
import collections, json, sys

path, summary = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as fh:
    run = json.load(fh)["runs"][0]
results = run["results"]
print(len(results))
if summary:
    names = {r["id"]: r["name"] for r in run["tool"]["driver"]["rules"]}
    by_rule = collections.Counter((r["ruleId"], r["level"]) for r in results)
    lines = ["## servelint", ""]
    if not results:
        lines.append("No findings.")
    else:
        lines += [f"{len(results)} finding{'s' if len(results) != 1 else ''}.", "",
                  "| rule | level | findings |", "|---|---|---:|"]
        lines += [f"| {code} {names.get(code, '')} | {level} | {n} |" for (code, level), n in sorted(by_rule.items())]
    with open(summary, "a", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
PY
)"
fi
{
  echo "sarif=$sarif"
  echo "findings=$findings"
  echo "exit-code=$status"
} >>"$GITHUB_OUTPUT"
exit "$status"
