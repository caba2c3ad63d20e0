#!/bin/sh
# Set up a virtual environment (the first time) and play a game against a bot,
# over the real protocol: ./play.sh [GAME] (spite-malice, ecarte, snatch; default spite-malice).
set -eu
cd "$(dirname "$0")"
. ./scripts/venv.sh
ensure_venv play
game=${1:-spite-malice}
[ $# -gt 0 ] && shift
exec "$VENV/bin/fairdeal" play "$game" --seat human --seat bot "$@"
