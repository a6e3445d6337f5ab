#!/usr/bin/env bash
# Smoke test of the built executable, alone in an empty folder: the offline `validate` judges a valid
# and an invalid corpus document (without network when `unshare -n` is allowed), its own CLI makes
# an organization and a key, `serve` starts, GET /v1/me, POST /v1/validate, POST /v1/parse and
# POST /v1/generate (XML, and a hybrid PDF judged whole) answer with that key, the dashboard's page
# and script are served, and the server stops:
# every kind of engine job runs in the executable's own worker.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
exe="$root/dist/einvoice"
corpus="$(cd "$root/.." && pwd)/shared/corpus"
valid="$corpus/xrechnung-testsuite/src/test/business-cases/standard/01.01a-INVOICE_ubl.xml"
invalid="$corpus/en16931-cen/test/CreditNote-unit-UBL/BR-02/BR-02_t02.xml"
work="$(mktemp -d)"
trap 'kill "${pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
cp "$exe" "$work/einvoice"
# A generate request from the fixture invoices (the checkout's bun, before the executable is alone).
"$root/node_modules/.bin/bun" -e '
  const { LOCALES, SCENARIOS } = await import(process.argv[1]);
  const invoice = SCENARIOS[0].build(LOCALES.de);
  await Bun.write(process.argv[2], JSON.stringify({ standard: "xrechnung", output: "xml", invoice }));
  await Bun.write(process.argv[3], JSON.stringify({ standard: "facturx", profile: "en16931", output: "pdf", invoice }));
' "$root/fixtures/invoices.ts" "$work/generate-xml.json" "$work/generate-pdf.json"
cd "$work"

fail() { echo "smoke test failed: $*"; [ -f serve.log ] && cat serve.log; exit 1; }
# Whether a captured body matches: grep -q stops reading at its first match, so a producer piped
# into it (curl, echo) can fail on the closed pipe and, under pipefail, fail the check.
has() { grep -q -- "$1" <<<"$2"; }

# Prints the body of METHOD URL (with the key; a file as body, application/xml unless a type is
# given; a binary answer as its size and first bytes); fails on a non-2xx.
request() {
  node -e '
    const [method, url, key, file, type = "application/xml"] = process.argv.slice(1);
    const body = file ? require("node:fs").readFileSync(file) : undefined;
    const headers = { authorization: "Bearer " + key, ...(file ? { "content-type": type } : {}) };
    fetch(url, { method, headers, body }).then(async (r) => {
      const bytes = Buffer.from(await r.arrayBuffer());
      const pdf = (r.headers.get("content-type") ?? "").startsWith("application/pdf");
      process.stdout.write(pdf ? `${bytes.subarray(0, 8).toString("latin1")} ${bytes.length} bytes ${r.headers.get("x-validation")}` : bytes.toString());
      process.exit(r.ok ? 0 : 1);
    }, () => process.exit(1));
  ' "$@"
}

# Runs the offline validator inside an empty network namespace when this user may make one.
offline=()
if unshare -n true 2>/dev/null; then offline=(unshare -n); fi
expect_exit() {
  local want="$1"; shift
  local got=0
  "${offline[@]}" ./einvoice validate "$@" >validate.out 2>&1 || got=$?
  [ "$got" = "$want" ] || { cat validate.out; fail "validate $* exited $got, expected $want"; }
}
if [ -f "$valid" ] && [ -f "$invalid" ]; then
  expect_exit 0 "$valid"
  grep -q '^PASS .*(xrechnung, 0 errors' validate.out || fail "no PASS line: $(cat validate.out)"
  expect_exit 1 "$invalid"
  grep -q '^FAIL .*BR-02_t02.xml' validate.out || fail "no FAIL line: $(cat validate.out)"
  expect_exit 2 "$work/missing.xml"
  # SaxonJS loads only when a rule file runs on it: forced here, it must load from inside the executable.
  VALIDATION_ENGINE=saxonjs expect_exit 1 "$invalid"
  grep -q '^FAIL .*BR-02_t02.xml' validate.out || fail "no FAIL line on SaxonJS: $(cat validate.out)"
  how="${offline[*]:-with network (unshare -n is not permitted here)}"
  echo "offline validate: ok (valid 0, invalid 1 on the native engine and on SaxonJS, missing 2; ${how})"
else
  echo "offline validate: skipped (no corpus at $corpus)"
fi

./einvoice orgs create --name smoke --plan starter --db ./smoke.sqlite >/dev/null
key="$(./einvoice keys create --org smoke --mode live --db ./smoke.sqlite | sed -n 's/.*"key": "\(svc_live_[A-Za-z0-9]*\)".*/\1/p')"
port=$((20000 + RANDOM % 10000))
./einvoice serve --port "$port" --db ./smoke.sqlite >serve.log 2>&1 &
pid=$!
body=""
for _ in $(seq 1 100); do
  if body="$(request GET "http://127.0.0.1:$port/v1/me" "$key")"; then break; fi
  sleep 0.1
done
has '"name":"smoke"' "$body" || fail "GET /v1/me: $body"

validated=""
if [ -f "$valid" ]; then
  # The first document waits for the workers to load their stylesheets, well inside the deadline.
  body="$(request POST "http://127.0.0.1:$port/v1/validate" "$key" "$valid")" || fail "POST /v1/validate: $body"
  has '"valid":true' "$body" || fail "POST /v1/validate: $body"
  has '"profileDetected":"xrechnung"' "$body" || fail "POST /v1/validate: $body"
  body="$(request POST "http://127.0.0.1:$port/v1/parse" "$key" "$valid")" || fail "POST /v1/parse: $body"
  has '"format":"ubl"' "$body" || fail "POST /v1/parse: $body"
  validated=", POST /v1/validate judged a valid XRechnung, POST /v1/parse read it"
fi
body="$(request POST "http://127.0.0.1:$port/v1/generate" "$key" generate-xml.json application/json)" || fail "POST /v1/generate: $body"
has 'CrossIndustryInvoice' "$body" || fail "POST /v1/generate: $body"
body="$(request POST "http://127.0.0.1:$port/v1/generate" "$key" generate-pdf.json application/json)" || fail "POST /v1/generate (PDF): $body"
has '^%PDF-.* bytes pass' "$body" || fail "POST /v1/generate (PDF): $body"
validated="$validated, POST /v1/generate wrote XRechnung CII and a Factur-X hybrid PDF judged valid"
# The dashboard's page and its embedded script come from inside the executable.
body="$(curl -fsS "http://127.0.0.1:$port/dashboard/sign-in")" || fail "GET /dashboard/sign-in"
has 'action="/dashboard/sign-in"' "$body" || fail "GET /dashboard/sign-in"
body="$(curl -fsS "http://127.0.0.1:$port/dashboard/assets/dashboard.js")" || fail "GET /dashboard/assets/dashboard.js"
has 'verifySeal' "$body" || fail "GET /dashboard/assets/dashboard.js"
validated="$validated, the dashboard's sign-in page and script served"
kill "$pid"
wait "$pid" || true
echo "executable smoke test: ok (GET /v1/me answered for org smoke$validated)"
