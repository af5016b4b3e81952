#!/usr/bin/env python3
"""Joins vllm_bench.py's rows with toolcalls' JMH rows on the same inputs: one Markdown row
per size, kind, format and mode (batch, stream), vLLM ÷ toolcalls.

    python3 src/tests/peers/join_vllm.py --vllm vllm.json \\
        --toolcalls toolcalls-corpus.json toolcalls-shapes.json --out side-by-side.md

toolcalls: JMH's -rf json of StreamingBenchmark.batch|streamEvents (chunk 4: the corpus, the
call-dense kind) and ShapeBenchmark.batch|stream4 (the prose and longcall shapes). Both sides
are best of rounds: vLLM's best round of vllm_bench.py, toolcalls' best JMH measurement
iteration (each an average over many parses); a row measured in several --toolcalls files (a
rerun of some rows) gives its best.
"""

import argparse
import json

KIND_ORDER = {"prose": 0, "longcall": 1, "corpus": 2}
KIND_NAME = {"prose": "prose only", "longcall": "one long call", "corpus": "call-dense"}


def toolcalls_rows(paths):
    out = {}
    for p in paths:
        with open(p, encoding="utf-8") as f:
            results = json.load(f)
        for r in results:
            bench = r["benchmark"].rsplit(".", 2)
            cls, method = bench[-2], bench[-1]
            params = r["params"]
            if cls == "StreamingBenchmark":
                if params.get("chunk") != "4":
                    continue
                kind = "corpus"
            else:
                kind = params["shape"]
            mode = "batch" if method == "batch" else "stream"
            raw = [x for fork in r["primaryMetric"]["rawData"] for x in fork]
            best_ns = min(raw) if raw else r["primaryMetric"]["score"]
            row = {"us": best_ns / 1e3, "mean_us": r["primaryMetric"]["score"] / 1e3}
            chunks = r.get("secondaryMetrics", {}).get("chunks")
            if mode == "stream" and chunks:
                # ns per chunk of the mean; scaled to the best iteration
                row["us_per_delta"] = chunks["score"] / 1e3 * best_ns / r["primaryMetric"]["score"]
            key = (params["format"], kind, int(params["size"]), mode)
            if key not in out or row["us"] < out[key]["us"]:
                out[key] = row
    return out


def fmt_us(x):
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 1:
        return f"{x:.1f}"
    return f"{x:.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vllm", required=True)
    ap.add_argument("--toolcalls", nargs="+", required=True)
    ap.add_argument("--out")
    a = ap.parse_args()
    with open(a.vllm, encoding="utf-8") as f:
        vllm = json.load(f)["rows"]
    tc = toolcalls_rows(a.toolcalls)
    lines = [
        "| size | kind | format | mode | vLLM µs | toolcalls µs | vLLM ÷ toolcalls "
        "| vLLM µs/delta | toolcalls µs/delta | vLLM's result |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    behind = []
    rows = sorted(vllm, key=lambda r: (r["size"], KIND_ORDER.get(r["kind"], 9), r["format"]))
    for r in rows:
        for mode in ("batch", "stream"):
            t = tc.get((r["format"], r["kind"], r["size"], mode))
            v_us = r[f"{mode}_best_us"]
            lower = mode == "stream" and r.get("stream_lower_bound")
            check = r[f"{mode}_check"]
            if t is None:
                ratio = "–"
                t_us = "–"
                t_delta = "–"
            else:
                ratio_v = v_us / t["us"]
                ratio = (">" if lower else "") + (f"{ratio_v:,.0f}×" if ratio_v >= 100 else f"{ratio_v:.2f}×")
                t_us = fmt_us(t["us"])
                t_delta = fmt_us(t["us_per_delta"]) if "us_per_delta" in t else ""
                if ratio_v < 1 and not lower:
                    behind.append((r, mode, ratio_v))
            v_delta = ""
            if mode == "stream":
                v_delta = (">" if lower else "") + fmt_us(r["stream_us_per_delta"])
            lines.append(
                f"| {r['size']:,} | {KIND_NAME.get(r['kind'], r['kind'])} | {r['format']} | {mode} "
                f"| {'>' if lower else ''}{fmt_us(v_us)} | {t_us} | {ratio} | {v_delta} | {t_delta} "
                f"| {'same message' if check == 'ok' else check} |"
            )
    lines.append("")
    if behind:
        lines.append("Rows where toolcalls takes longer than vLLM:")
        lines.append("")
        for r, mode, x in behind:
            check = r[f"{mode}_check"]
            note = "" if check == "ok" else f" (vLLM's result differs: {check})"
            lines.append(
                f"- {r['size']:,} {KIND_NAME.get(r['kind'], r['kind'])} {r['format']} {mode}: {x:.2f}×{note}"
            )
    else:
        lines.append("toolcalls takes less time than vLLM on every row.")
    text = "\n".join(lines) + "\n"
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
