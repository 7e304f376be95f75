#!/usr/bin/env bash
# `npm test`: type check, unit tests, integration tests (daemon and simulator over real sockets) and
# browser tests of the console (test/e2e, Debian chromium through Playwright).
# Installs the Debian packages the suites need when they are missing, and fails loudly if it cannot.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the suites use: chromium for the browser tests (test/e2e start /usr/bin/chromium),
# socat for the pseudo-terminal serial lines between the daemon and the virtual PLCs, mbpoll as a
# Modbus client written by others that checks our Modbus side; the real peers of the service tests
# (spec §3 services; started by the tests themselves on 127.0.0.1): mosquitto with its clients
# mosquitto_sub/mosquitto_pub (what arrives at the broker, the last will), MariaDB, InfluxDB 1.x
# (PostgreSQL 15 comes with the machine image); systemd for systemd-analyze, which checks the
# daemon's unit file (build/service.test.ts); openssl, which makes the test certificates, is
# s_client in the console HTTPS tests and makes the daemon's own console certificate (docs/https.md);
# dante-server (danted), the SOCKS5 proxy the e-mail client's proxy tests send through;
# python3-scapy, whose IEC 104 layer (run with Debian's /usr/bin/python3) is the control station we
# did not write, and tshark, which captures those sessions on loopback and dissects every frame
# (test/integration/iec104-scapy.test.ts; the debconf question whether non-root users may capture
# is left at its default, no, by the noninteractive install); prometheus, the monitoring server
# that scrapes the unit's GET /metrics in test/integration/metrics-prometheus.test.ts, with its
# promtool that lints the exposition (where systemd runs, the package also starts its own service on
# port 9090, which the test does not use: it starts a Prometheus of its own on a free port)
packages=(chromium socat mbpoll mosquitto mosquitto-clients mariadb-server influxdb systemd openssl dante-server python3-scapy tshark prometheus)
# A package counts as there when dpkg's status is "installed" (`dpkg -s` also succeeds for a removed
# package whose config files are left, and would skip the install) and, for chromium, when the
# binary the browser tests start is there too (else it is reinstalled).
installed() {
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ] || return 1
  case "$1" in
    chromium) [ -x /usr/bin/chromium ] ;;
    socat) command -v socat >/dev/null ;;
    mbpoll) command -v mbpoll >/dev/null ;;
    mosquitto) command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] ;;
    mosquitto-clients) command -v mosquitto_pub >/dev/null && command -v mosquitto_sub >/dev/null ;;
    mariadb-server) command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] ;;
    influxdb) command -v influxd >/dev/null ;;
    systemd) command -v systemd-analyze >/dev/null ;;
    openssl) command -v openssl >/dev/null ;;
    dante-server) command -v danted >/dev/null || [ -x /usr/sbin/danted ] ;;
    python3-scapy) /usr/bin/python3 -c 'import scapy.contrib.scada.iec104' 2>/dev/null ;;
    tshark) command -v tshark >/dev/null ;;
    prometheus) command -v prometheus >/dev/null && command -v promtool >/dev/null ;;
  esac
}
missing=()
for pkg in "${packages[@]}"; do installed "$pkg" || missing+=("$pkg"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing test dependencies: ${missing[*]}"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends --reinstall "${missing[@]}"; }; then
    echo "ERROR: could not install ${missing[*]}; install them by hand (as root) and run again" >&2
    exit 1
  fi
fi

[ -d node_modules ] || npm ci --no-audit --no-fund

echo "== generated i18n types are up to date"
# the files typesafe-i18n writes from the English dictionary; regenerating must not change them
generated=(web/i18n/i18n-types.ts web/i18n/i18n-util.ts web/i18n/i18n-util.sync.ts web/i18n/i18n-util.async.ts)
before=$(cat "${generated[@]}" | sha256sum)
npx typesafe-i18n --no-watch >/dev/null
if [ "$(cat "${generated[@]}" | sha256sum)" != "$before" ]; then
  echo "ERROR: the generated files in web/i18n were stale (now regenerated): commit them ('npm run i18n')" >&2
  exit 1
fi
echo "== lint and format check (biome.jsonc)"
# the formatter and linter of the whole tree; `npm run format` applies the formatting and safe fixes
if [ ! -x node_modules/.bin/biome ]; then
  echo "ERROR: @biomejs/biome is not installed in node_modules: run npm ci" >&2
  exit 1
fi
npm run --silent lint
echo "== type check"
npx tsc --noEmit -p .
echo "== unit, integration and browser (e2e) tests"
# Every temp file and folder of the run goes into one folder, removed at the end (tests that stop
# early leave nothing behind in /tmp).
run_tmp=$(mktemp -d -t communicator-test.XXXXXX)
# like /tmp itself: the database servers the tests start run as their own users (postgres)
chmod 1777 "$run_tmp"
trap 'rm -rf "$run_tmp"' EXIT
export TMPDIR="$run_tmp"
# each group's report (test/failures-reporter.ts: the files' times, the failed tests' messages)
int_json="$run_tmp/integration-report.json"
e2e_json="$run_tmp/e2e-report.json"
reporter=./test/failures-reporter.ts
# Two vitest processes side by side: the integration tests, two files at a time (vitest.config.ts;
# they mostly wait on sockets, timers, child processes and peers), and the browser tests, two files
# at a time, then the unit tests (CPU-bound, about a minute), so that both processes end at about
# the same time. Each test takes its own ports and data folders, so the groups do not meet. The
# browser and unit tests' output follows the integration tests'.
e2e_log="$run_tmp/e2e.log"
TEST_REPORT="$e2e_json" npx vitest run --project e2e --project unit --reporter=default --reporter="$reporter" >"$e2e_log" 2>&1 &
e2e_pid=$!
rc=0
TEST_REPORT="$int_json" npx vitest run --project integration --reporter=default --reporter="$reporter" || rc=$?
e2e_rc=0
wait "$e2e_pid" || e2e_rc=$?
echo "== browser (e2e) and unit tests"
cat "$e2e_log"
echo "== the run"
npx tsx test/failures.ts "integration=$int_json" "browser and unit=$e2e_json" || true
if [ "$rc" -ne 0 ] || [ "$e2e_rc" -ne 0 ]; then
  echo "ERROR: tests failed (integration: exit $rc, browser and unit: exit $e2e_rc)" >&2
  exit 1
fi
