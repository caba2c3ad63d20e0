#!/bin/sh
# Set up a virtual environment (the first time) and play a game against a bot,
# over the real protocol: ./play.sh [GAME] (spite-malice, ecarte, snatch; default spite-malice).
# Snatch! has four seats (you and three bots), the others two.
set -eu
cd "$(dirname "$0")"
. ./scripts/venv.sh
ensure_venv play
game=${1:-spite-malice}
[ $# -gt 0 ] && shift
# Snatch! is at its best with several players: four seats, three of them bots; the others two.
case "$game" in
    snatch) set -- --seat bot --seat bot "$@" ;;
esac
exec "$VENV/bin/fairdeal" play "$game" --seat human --seat bot "$@"
