#!/usr/bin/env bash
# What a newcomer waits for: clones this repository's HEAD into a temporary folder with the ruleset
# mirror beside it (../shared, as in the README), runs `npm install`, then times `npm start` from its
# launch to the first `GET /v1/me` answered 200 with the test key the first start hands over
# (first-start-keys.txt, since the output is not a terminal); then stops it and times a second
# start, whose rulesets are cached. Prints both figures in seconds.
#   bash scripts/first-start.sh [--keep]     --keep leaves the clone in place and prints its path
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mirror="$(cd "$root/.." && pwd)/shared"
[ -d "$mirror/rulesets" ] || { echo "first-start: no ruleset mirror at $mirror/rulesets"; exit 1; }
work="$(mktemp -d)"
pid=""
keep="${1:-}"
cleanup() {
  if [ -n "$pid" ]; then kill -TERM -- "-$pid" 2>/dev/null || true; fi
  if [ "$keep" = "--keep" ]; then echo "clone kept in $work/einvoice"; else rm -rf "$work"; fi
}
trap cleanup EXIT

git clone -q "$root" "$work/einvoice"
ln -s "$mirror" "$work/shared"
cd "$work/einvoice"
echo "first-start: npm install in $work/einvoice"
npm install --no-audit --no-fund >npm-install.log 2>&1 || { cat npm-install.log; exit 1; }

port=$((20000 + RANDOM % 10000))
db="$work/einvoice/data/einvoice.sqlite"
key=""

# Starts `npm start` in its own process group (so the server under npm stops with it), waits for
# GET /v1/me to answer 200 and sets $seconds to the time taken, leaving the server running in $pid.
# (Not a command substitution: its subshell would keep $pid from the caller.)
timed_start() {
  local log="$1" started status
  started=$(date +%s.%N)
  PORT="$port" DATABASE_PATH="$db" setsid npm start >"$log" 2>&1 &
  pid=$!
  while :; do
    kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "first-start: npm start exited"; exit 1; }
    [ -z "$key" ] && [ -f "$(dirname "$db")/first-start-keys.txt" ] &&
      key="$(sed -n 's/^  test key: \(svc_test_[A-Za-z0-9]*\)$/\1/p' "$(dirname "$db")/first-start-keys.txt")"
    if [ -n "$key" ]; then
      status="$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $key" "http://127.0.0.1:$port/v1/me" || true)"
      [ "$status" = 200 ] && break
    fi
    sleep 0.1
  done
  seconds="$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')"
}

# Stops the whole group and waits until the port is free again, so the next start cannot be
# answered by this server.
stop() {
  kill -TERM -- "-$pid" 2>/dev/null || true
  while kill -0 -- "-$pid" 2>/dev/null || curl -s -o /dev/null "http://127.0.0.1:$port/v1/me"; do sleep 0.1; done
  pid=""
}

load="$(cut -d' ' -f1 /proc/loadavg)"
timed_start first-start.log
stop
first="$seconds"
timed_start second-start.log
stop
echo "first start: ${first} s to GET /v1/me answered 200 (ruleset build included; 1-minute load average $load at launch on $(nproc) cores)"
grep -E '^(sync|prepare|bundle):' first-start.log | sed 's/^/  /'
echo "second start: ${seconds} s (rulesets cached)"
