#!/usr/bin/env bash
# Runs the chaos test (Tests/StateRestorationTests/Chaos) for SEEDS seeds (default 1000)
# of STEPS steps each (default 40), from seed FIRST (default 1), in debug, then prints
# the seeds, the steps, the kills, the launches killed and the time taken. The whole
# output is kept in .build/chaos.log; a failed seed's issue there says how to replay it.
#
#     Scripts/chaos.sh 1000          # the long run
#     Scripts/chaos.sh 200 40 5001   # 200 other seeds
set -uo pipefail
seeds="${1:-1000}"
steps="${2:-40}"
first="${3:-1}"
cd "$(dirname "$0")/.."

log=.build/chaos.log
mkdir -p .build
start=$(date +%s%N)
STATE_RESTORATION_CHAOS_SEEDS="$seeds" STATE_RESTORATION_CHAOS_STEPS="$steps" STATE_RESTORATION_CHAOS_SEED="$first" \
    swift test --filter ChaosTests >"$log" 2>&1
status=$?
end=$(date +%s%N)

grep -oE "chaos: [0-9]+ seeds .*" "$log" || echo "chaos.sh: the test printed no summary; see $log"
# Each failed seed and what failed: the first line of its issue after the replay command.
awk '/chaos seed [0-9]+ failed; replay/ { match($0, /seed [0-9]+/); seed = substr($0, RSTART + 5, RLENGTH - 5); n = NR }
     n && NR == n + 2 { what = $0 }
     n && NR == n + 3 { if (what ~ /process ended/) what = $0; sub(/^ +/, "", what); print "  seed " seed ": " what; n = 0 }' "$log"
elapsed=$(( (end - start) / 1000000 ))
printf 'chaos.sh: %s seeds x %s steps from seed %s in %d.%01d s (exit status %d; log in %s)\n' \
    "$seeds" "$steps" "$first" $(( elapsed / 1000 )) $(( elapsed % 1000 / 100 )) "$status" "$log"
exit "$status"
