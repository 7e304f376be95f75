#!/usr/bin/env bash
# `npm test`: type check, unit tests, integration tests (daemon and simulator over real sockets).
# Installs the Debian packages the suites need when they are missing, and fails loudly if it cannot.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the suites use (the current suites need none beyond Node)
packages=()
missing=()
for pkg in "${packages[@]}"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing test dependencies: ${missing[*]}"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; }; then
    echo "ERROR: could not install ${missing[*]}; install them by hand (as root) and run again" >&2
    exit 1
  fi
fi

[ -d node_modules ] || npm ci --no-audit --no-fund

echo "== type check"
npx tsc --noEmit -p .
echo "== unit and integration tests"
npx vitest run
