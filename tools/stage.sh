#!/usr/bin/env bash
# One stage of `make test`: say that it starts, run it, say how long it took (wall seconds).
#   tools/stage.sh NAME COMMAND [ARG ...]
# With STAGE_LOG set, the line "NAME  SECONDS s" is also appended to that file (make test prints
# the file as its closing table).
set -u
name=$1
shift
echo "==> $name"
start=$(date +%s.%N)
"$@"
status=$?
line=$(awk -v s="$start" -v e="$(date +%s.%N)" -v n="$name" -v st="$status" \
    'BEGIN { printf "%-44s %7.1f s%s", n, e - s, (st == 0 ? "" : "   FAILED (exit " st ")") }')
echo "<== $line"
if [ -n "${STAGE_LOG:-}" ]; then
    mkdir -p "$(dirname "$STAGE_LOG")" && echo "$line" >> "$STAGE_LOG"
fi
exit "$status"
