#!/usr/bin/env bash
# Smoke test of the built executable, alone in an empty folder: its own CLI makes an organization
# and a key, `serve` starts, GET /v1/me answers with that key, and the server stops.
set -euo pipefail
exe="$(cd "$(dirname "$0")/.." && pwd)/dist/einvoice"
work="$(mktemp -d)"
trap 'kill "${pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
cp "$exe" "$work/einvoice"
cd "$work"
./einvoice orgs create --name smoke --plan starter --db ./smoke.sqlite >/dev/null
key="$(./einvoice keys create --org smoke --mode live --db ./smoke.sqlite | sed -n 's/.*"key": "\(svc_live_[A-Za-z0-9]*\)".*/\1/p')"
port=$((20000 + RANDOM % 10000))
./einvoice serve --port "$port" --db ./smoke.sqlite >serve.log 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  if body="$(node -e 'fetch(process.argv[1], { headers: { authorization: "Bearer " + process.argv[2] } }).then(async (r) => { process.stdout.write(await r.text()); process.exit(r.ok ? 0 : 1); }, () => process.exit(1))' "http://127.0.0.1:$port/v1/me" "$key")"; then break; fi
  sleep 0.1
done
echo "$body" | grep -q '"name":"smoke"' || { echo "smoke test failed: $body"; cat serve.log; exit 1; }
kill "$pid"
wait "$pid" || true
echo "executable smoke test: ok (GET /v1/me answered for org smoke)"
