#!/usr/bin/env bash
# vLLM's tool parsers beside toolcalls on the benchmark matrix's inputs (docs/performance.md,
# "Beside vLLM's parsers"). Writes into OUT: inputs/ (matrix.sh --inputs), toolcalls-corpus.json
# and toolcalls-shapes.json (JMH, -rf json), vllm.json and vllm.md (vllm_bench.py),
# side-by-side.md (join_vllm.py).
#
#   src/tests/peers/side_by_side.sh --vllm VLLM_SRC [--out DIR] [--sizes 1000,10000,100000,1000000]
#       [--formats hermes,...] [--parts inputs,toolcalls,vllm,join] [--jmh "JMH options"]
#       [--budget S] [--stream-cap S]
#
# VLLM_SRC: a directory holding the vllm package's sources (a checkout of vllm-project/vllm,
# the parent directory of an installed vllm package, or the files the parsers import); see
# vllm_bench.py. Only the vllm part needs it. TOOLCALLS_BENCH_CP, when set, is the classpath
# of the toolcalls part too (matrix.sh's variable).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
base=$(cd "$here/../../.." && pwd)
out=/tmp/side-by-side
sizes=1000,10000,100000,1000000
formats=hermes,mistral,deepseek_v3,glm45,llama3_json,qwen3_coder,kimi_k2,pythonic
parts=inputs,toolcalls,vllm,join
jmh="-f 1 -wi 3 -w 1s -i 5 -r 1s"
budget=1.0
cap=20
vllm=
while [ $# -gt 0 ]; do
    case "$1" in
        --vllm) vllm=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --sizes) sizes=$2; shift 2 ;;
        --formats) formats=$2; shift 2 ;;
        --parts) parts=$2; shift 2 ;;
        --jmh) jmh=$2; shift 2 ;;
        --budget) budget=$2; shift 2 ;;
        --stream-cap) cap=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"
has() { [[ ",$parts," == *",$1,"* ]]; }
if has inputs; then
    "$base/src/tests/bench/matrix.sh" --inputs "$out/inputs" --formats "$formats" \
        --parts corpus,shapes --shapes prose,longcall,calls --corpus-size "$sizes" --shape-size "$sizes"
fi
if has toolcalls; then
    # the same outputs: StreamingBenchmark's corpus and ShapeBenchmark's shapes at these sizes,
    # built by the same Corpora calls as the inputs; 4-code-point chunks
    if [ -n "${TOOLCALLS_BENCH_CP:-}" ]; then
        cp=$TOOLCALLS_BENCH_CP
    else
        [ -f "$base/target/bench.cp" ] || "$base/src/tests/bench/matrix.sh" --help >/dev/null
        cp="$base/src/tests/target/test-classes:$(cat "$base/target/bench.cp")"
    fi
    java -Dtoolcalls.tests="$base/tests-data" -cp "$cp" org.openjdk.jmh.Main \
        'StreamingBenchmark\.(batch|streamEvents)$' -p format="$formats" -p chunk=4 -p size="$sizes" \
        $jmh -rf json -rff "$out/toolcalls-corpus.json" -o "$out/toolcalls-corpus.log"
    java -Dtoolcalls.tests="$base/tests-data" -cp "$cp" org.openjdk.jmh.Main \
        'ShapeBenchmark\.(batch|stream4)$' -p format="$formats" -p shape=prose,longcall,calls -p size="$sizes" \
        $jmh -rf json -rff "$out/toolcalls-shapes.json" -o "$out/toolcalls-shapes.log"
fi
if has vllm; then
    [ -n "$vllm" ] || { echo "--vllm VLLM_SRC is needed for the vllm part" >&2; exit 2; }
    python3 "$here/vllm_bench.py" --vllm "$vllm" --inputs "$out/inputs" --formats "$formats" \
        --sizes "$sizes" --budget "$budget" --stream-cap "$cap" --json "$out/vllm.json" --table "$out/vllm.md"
fi
if has join; then
    python3 "$here/join_vllm.py" --vllm "$out/vllm.json" \
        --toolcalls "$out/toolcalls-corpus.json" "$out/toolcalls-shapes.json" --out "$out/side-by-side.md"
fi
