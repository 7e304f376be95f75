#!/usr/bin/env bash
# `npm run test:busy [-- RUNS]`: `npm test` on a busy machine, RUNS times in a row (default 3),
# stopping at the first failure. Beside it run two CPU-bound loops (one per core of the 2-core
# machines the project is tested on) and an `npm start` simulator on its default port 8080 with a
# data folder of its own, as on a technician's laptop; an 8080 already taken (a simulator already
# running) is used as it is. The suite must pass like this: its tests wait for conditions, never
# for fixed times, and have no wall-clock limits in their assertions.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
sim_port=8080
[ -d node_modules ] || npm ci --no-audit --no-fund

data=$(mktemp -d -t busy-sim.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done
  rm -rf "$data"
}
trap cleanup EXIT

answers() { node -e "require('net').connect($sim_port,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))"; }
if answers; then
  echo "== port $sim_port answers already: the simulator there stays beside the tests"
else
  setsid npm start -- --port "$sim_port" --data "$data" >"$data/simulator.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 240); do answers && break; sleep 0.5; done
  answers || { echo "ERROR: the simulator did not answer on $sim_port" >&2; cat "$data/simulator.log" >&2; exit 1; }
  echo "== simulator on http://127.0.0.1:$sim_port (data $data)"
fi
for _ in 1 2; do
  setsid node -e 'for (;;);' &
  pids+=($!)
done
echo "== two busy loops: ${pids[*]: -2}"

for n in $(seq 1 "$runs"); do
  echo "== busy run $n of $runs"
  start=$(date +%s)
  npm test
  echo "== busy run $n of $runs passed in $(($(date +%s) - start)) s"
done
