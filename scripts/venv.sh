# Sourced by play.sh and test.sh: make sure $VENV holds an up-to-date install of fairdeal.
# FAIRDEAL_VENV chooses the folder (default .venv).
VENV=${FAIRDEAL_VENV:-.venv}

ensure_venv() {
    extras=""
    [ "$1" = test ] && extras="[test]"
    stamp="$VENV/.fairdeal-$1"
    want=$(cat pyproject.toml | cksum)
    if [ ! -x "$VENV/bin/python" ]; then
        echo "Creating a virtual environment in $VENV ..." >&2
        python3 -m venv "$VENV"
    fi
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        echo "Installing fairdeal$extras into $VENV ..." >&2
        "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
        "$VENV/bin/python" -m pip install -q -e ".$extras"
        echo "$want" > "$stamp"
    fi
}
