#!/usr/bin/env python3
"""Joins vllm_bench.py's rows with toolcalls' JMH rows on the same inputs: one Markdown row
per size, kind, format and mode (batch, stream), vLLM ÷ toolcalls.

    python3 src/tests/peers/join_vllm.py --vllm vllm.json \\
        --toolcalls toolcalls-corpus.json toolcalls-shapes.json --out side-by-side.md
    python3 src/tests/peers/join_vllm.py --run run1/vllm.json run1/toolcalls-*.json \\
        --run run2/vllm.json run2/toolcalls-*.json --out side-by-side.md

Several runs (--run, once per run) join into the same rows, their figures side by side
("run 1 / run 2"); the rows come from the first run, and so do the per-delta figures and
vLLM's result.

toolcalls: JMH's -rf json of StreamingBenchmark.batch|streamEvents (chunk 4: the corpus, the
call-dense kind) and ShapeBenchmark.batch|stream4 (the prose, longcall and calls shapes). Both sides
are best of rounds: vLLM's best round of vllm_bench.py, toolcalls' best JMH measurement
iteration (each an average over many parses); a row measured in several --toolcalls files (a
rerun of some rows) gives its best.
"""

import argparse
import json

KIND_ORDER = {"prose": 0, "longcall": 1, "calls": 2, "corpus": 3}
KIND_NAME = {
    "prose": "prose only",
    "longcall": "one long call",
    "calls": "calls with prose",
    "corpus": "call-dense",
}


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


def measure(v_row, tc, mode):
    """One run's figures for a row and mode: vLLM's and toolcalls' µs, the ratio, µs per delta."""
    v_us = v_row[f"{mode}_best_us"]
    lower = mode == "stream" and bool(v_row.get("stream_lower_bound"))
    t = tc.get((v_row["format"], v_row["kind"], v_row["size"], mode))
    m = {"v_us": v_us, "lower": lower, "t": t, "ratio": None}
    if t is not None:
        m["ratio"] = v_us / t["us"]
    return m


def fmt_ratio(x, lower):
    return (">" if lower else "") + (f"{x:,.0f}×" if x >= 100 else f"{x:.2f}×")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vllm", help="vllm_bench.py's JSON (one run)")
    ap.add_argument("--toolcalls", nargs="+", help="JMH's JSON files (one run)")
    ap.add_argument("--run", nargs="+", action="append", default=[],
                    metavar="FILE", help="one run: vllm_bench.py's JSON, then JMH's JSON files; "
                    "given again for each further run, whose figures join the same rows")
    ap.add_argument("--out")
    a = ap.parse_args()
    runs = list(a.run)
    if a.vllm:
        runs.insert(0, [a.vllm] + (a.toolcalls or []))
    if not runs or any(len(r) < 2 for r in runs):
        ap.error("give --vllm and --toolcalls, or --run VLLM.json TOOLCALLS.json... per run")
    loaded = []
    for r in runs:
        with open(r[0], encoding="utf-8") as f:
            rows = {(x["format"], x["kind"], x["size"]): x for x in json.load(f)["rows"]}
        loaded.append((rows, toolcalls_rows(r[1:])))
    n = len(loaded)
    sep = " / "
    runs_note = "" if n == 1 else " (runs " + sep.join(str(i + 1) for i in range(n)) + ")"
    lines = [
        f"| size | kind | format | mode | vLLM µs{runs_note} | toolcalls µs{runs_note} | vLLM ÷ toolcalls{runs_note} "
        f"| vLLM µs/delta | toolcalls µs/delta | vLLM's result |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    behind = []
    first = loaded[0][0]
    for key in sorted(first, key=lambda k: (k[2], KIND_ORDER.get(k[1], 9), k[0])):
        r = first[key]
        for mode in ("batch", "stream"):
            ms = [measure(rows[key], tc, mode) for rows, tc in loaded if key in rows]
            v_col = sep.join((">" if m["lower"] else "") + fmt_us(m["v_us"]) for m in ms)
            t_col = sep.join(fmt_us(m["t"]["us"]) if m["t"] else "–" for m in ms)
            ratio_col = sep.join(fmt_ratio(m["ratio"], m["lower"]) if m["ratio"] is not None else "–"
                                 for m in ms)
            v_delta = t_delta = ""
            if mode == "stream":
                m = ms[0]
                v_delta = (">" if m["lower"] else "") + fmt_us(r["stream_us_per_delta"])
                if m["t"] and "us_per_delta" in m["t"]:
                    t_delta = fmt_us(m["t"]["us_per_delta"])
            if not ms[0]["t"]:
                t_delta = "–"
            for i, m in enumerate(ms):
                if m["ratio"] is not None and m["ratio"] < 1 and not m["lower"]:
                    behind.append((r, mode, i + 1, m["ratio"]))
            check = r[f"{mode}_check"]
            lines.append(
                f"| {r['size']:,} | {KIND_NAME.get(r['kind'], r['kind'])} | {r['format']} | {mode} "
                f"| {v_col} | {t_col} | {ratio_col} | {v_delta} | {t_delta} "
                f"| {'same message' if check == 'ok' else check} |"
            )
    lines.append("")
    if behind:
        lines.append("Rows where toolcalls takes longer than vLLM:")
        lines.append("")
        for r, mode, run, x in behind:
            check = r[f"{mode}_check"]
            note = "" if check == "ok" else f" (vLLM's result differs: {check})"
            which = f" (run {run})" if n > 1 else ""
            lines.append(
                f"- {r['size']:,} {KIND_NAME.get(r['kind'], r['kind'])} {r['format']} {mode}{which}: {x:.2f}×{note}"
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
