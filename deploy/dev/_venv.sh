# Sourced by run.sh and test.sh: make .venv and install the project into it, once.
# Usage: ensure_venv ""      (runtime dependencies)
#        ensure_venv "[dev]" (plus test and lint tools)
# Idempotent and fast: pip only runs when pyproject.toml is newer than the stamp.

ensure_venv() {
    local extra="$1"
    local stamp=".venv/.installed${extra:+-dev}"
    if [ ! -x .venv/bin/python ]; then
        local python="${PYTHON:-}"
        if [ -z "$python" ]; then
            for candidate in python3.11 python3.12 python3.13 python3; do
                if command -v "$candidate" >/dev/null 2>&1; then python="$candidate"; break; fi
            done
        fi
        echo "==> creating .venv with $python" >&2
        "$python" -m venv .venv
        rm -f .venv/.installed*
    fi
    # A current dev install also satisfies the runtime one.
    if [ -z "$extra" ] && [ -f .venv/.installed-dev ] && [ ! pyproject.toml -nt .venv/.installed-dev ]; then
        return 0
    fi
    if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
        echo "==> installing cacho${extra} into .venv" >&2
        .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extra}" >&2
        touch "$stamp"
    fi
}
