#!/usr/bin/env python3
"""vLLM's own tool parsers on the benchmark matrix's inputs, beside toolcalls.

Runs each parser's ``extract_tool_calls`` (batch) and ``extract_tool_calls_streaming``
(the deltas of the output, one call per delta) on the files that
``src/tests/bench/matrix.sh --inputs DIR`` writes, checks what it returns against the
message toolcalls gives (``.expected.json``), times it, and writes a JSON file and a
Markdown table. ``join_vllm.py`` puts the result beside toolcalls' own rows.

    python3 src/tests/peers/vllm_bench.py --vllm VLLM_SRC --inputs DIR \\
        [--formats hermes,...] [--kinds corpus,prose,longcall,calls] [--sizes 1000,10000]
        [--budget 1.0] [--stream-cap 20] --json OUT.json [--table OUT.md]

VLLM_SRC is a directory holding the ``vllm`` package's tool parser sources: a checkout of
https://github.com/vllm-project/vllm (or an installed ``vllm`` package's parent directory,
``python3 -c 'import vllm, os; print(os.path.dirname(os.path.dirname(vllm.__file__)))'``).
This file holds no vLLM code. Parsers are looked up under both layouts,
``vllm/frontend/processing/tool_parsers/`` and ``vllm/tool_parsers/`` (see PARSERS).

What vLLM's serving layer would supply is stood in for here, so that the parsers run
with nothing but ``regex`` and ``pydantic`` installed; every stand-in is in
``install_stand_ins`` and is named there:
  * the tokenizer: a vocabulary holding the format's special tokens (MARKERS); the
    parsers look up their markers' ids in it;
  * token ids of the stream: each special token is one id and one delta of its own (a
    model emits a special token as one token; cutting it over several deltas would hide it
    from the parsers that compare ids); the text between special tokens is cut into
    deltas of 4 code points, one ordinary id each;
  * the request: an object with the tools of ``.tools.json`` (``request.tools``);
  * the logger, ``envs`` (vLLM's defaults), the ``openai``/``transformers`` types named
    in signatures, and ``partial_json_parser`` (only llama3_json's streaming calls it; a
    small completion of truncated JSON, PARTIAL_JSON below, not the package);
  * what the protocol module (``generate/base/protocol.py``) imports: the base of its
    classes, OpenAIBaseModel (extra fields allowed, each validation checks the input's
    keys against the fields, as vLLM's does), ``make_tool_call_id`` ("chatcmpl-tool-"
    and a random UUID), and names it never calls on the parsers' paths;
  * mistral's imports that its v11 path never calls: ``ijson`` (the pre-v11 streaming
    reader), ``mistral_common``'s tool types, the Mistral tokenizer and reasoning parser.
Modules that exist under VLLM_SRC (or are installed) are imported from there, stand-ins
only fill the gaps.

Times: time.perf_counter_ns around whole parses (a new parser per parse, as vLLM makes
one per request), rounds of repetitions until --budget seconds are spent (at least 5
rounds), best and median of the per-parse times. A streaming parse that runs past
--stream-cap seconds is stopped; its row then gives the time to that point as a lower
bound ("> N").
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import logging
import math
import os
import statistics
import sys
import time
import types
import uuid

# ---------------------------------------------------------------------------------------
# The parsers and their special tokens

PARSERS = {
    # format: (module under vllm/frontend/processing/tool_parsers or vllm/tool_parsers, class)
    "hermes": ("hermes_tool_parser", "Hermes2ProToolParser"),
    "mistral": ("mistral_tool_parser", "MistralToolParser"),
    "deepseek_v3": ("deepseekv3_tool_parser", "DeepSeekV3ToolParser"),
    "glm45": ("glm4_moe_tool_parser", "Glm4MoeModelToolParser"),
    "llama3_json": ("llama_tool_parser", "Llama3JsonToolParser"),
    "qwen3_coder": ("qwen3coder_tool_parser", "Qwen3CoderToolParser"),
    "kimi_k2": ("kimi_k2_tool_parser", "KimiK2ToolParser"),
    "pythonic": ("pythonic_tool_parser", "PythonicToolParser"),
}

# The special tokens of each model's vocabulary that the formats use (one id each).
MARKERS = {
    "hermes": ["<tool_call>", "</tool_call>"],
    "mistral": ["[TOOL_CALLS]", "[ARGS]"],
    "deepseek_v3": [
        "<｜tool▁calls▁begin｜>",
        "<｜tool▁calls▁end｜>",
        "<｜tool▁call▁begin｜>",
        "<｜tool▁call▁end｜>",
        "<｜tool▁sep｜>",
    ],
    "glm45": [
        "<tool_call>",
        "</tool_call>",
        "<arg_key>",
        "</arg_key>",
        "<arg_value>",
        "</arg_value>",
    ],
    "llama3_json": ["<|python_tag|>", "<|eom_id|>", "<|eot_id|>"],
    "qwen3_coder": ["<tool_call>", "</tool_call>"],
    "kimi_k2": [
        "<|tool_calls_section_begin|>",
        "<|tool_calls_section_end|>",
        "<|tool_call_begin|>",
        "<|tool_call_end|>",
        "<|tool_call_argument_begin|>",
    ],
    "pythonic": [],
}

ORDINARY_ID = 1000  # the id given to a delta of ordinary text


# ---------------------------------------------------------------------------------------
# Stand-ins for what the serving layer supplies (see the module docstring)


class StandInTokenizer:
    """A tokenizer whose vocabulary is the format's special tokens."""

    def __init__(self, markers):
        self._vocab = {m: 100 + i for i, m in enumerate(markers)}

    def get_vocab(self):
        return self._vocab

    def __bool__(self):
        return True


class Allow:
    """partial_json_parser.core.options.Allow (the flags the llama parser passes)."""

    STR = 0x1
    NUM = 0x2
    ARR = 0x4
    OBJ = 0x8
    NULL = 0x10
    BOOL = 0x20
    NAN = 0x40
    INFINITY = 0x80
    _INFINITY = 0x100
    INF = INFINITY | _INFINITY
    SPECIAL = NULL | BOOL | INF | NAN
    ATOM = STR | NUM | SPECIAL
    COLLECTION = ARR | OBJ
    ALL = ATOM | COLLECTION


class MalformedJSON(ValueError):
    pass


def _partial_json_loads(s, allow=Allow.ALL):
    """PARTIAL_JSON: completes a truncated JSON text and decodes it.

    Stand-in for ``partial_json_parser.loads`` on what the llama parser gives it: an
    object, possibly cut anywhere. An unterminated string is closed when ``allow`` has
    STR, else dropped with its key; a dangling key, colon or comma is dropped; a cut
    literal is completed; open arrays and objects are closed. A complete value followed
    by more text raises ``json.JSONDecodeError`` ("Extra data"), as the package does.
    Linear: strings are skipped with ``str.find``.
    """
    if not s or not s.strip():
        raise MalformedJSON("empty")
    stack = []
    i = 0
    n = len(s)
    in_string_at = -1
    while i < n:
        c = s[i]
        if c == '"':
            j = i + 1
            while True:
                q = s.find('"', j)
                if q == -1:
                    in_string_at = i
                    i = n
                    break
                k = q - 1
                bs = 0
                while k > i and s[k] == "\\":
                    bs += 1
                    k -= 1
                if bs % 2 == 0:
                    i = q + 1
                    break
                j = q + 1
            continue
        if c in "{[":
            stack.append(c)
        elif c in "}]":
            if stack:
                stack.pop()
        i += 1
    text = s
    if in_string_at >= 0:
        if allow & Allow.STR:
            tail = text[in_string_at:]
            if tail.endswith("\\"):
                tail = tail[:-1]
            text = text[:in_string_at] + tail + '"'
        else:
            text = text[:in_string_at]
    text = text.rstrip()
    # a cut literal or number at the end
    for word in ("true", "false", "null"):
        for k in range(len(word) - 1, 0, -1):
            if text.endswith(word[:k]) and not text.endswith('"' + word[:k]):
                text = text[: -k] + word
                break
    while True:
        t = text.rstrip()
        if t.endswith(",") or t.endswith(":"):
            text = t[:-1]
            if t.endswith(":"):
                # drop the key too
                text = text.rstrip()
                if text.endswith('"'):
                    q = text.rfind('"', 0, len(text) - 1)
                    text = text[:q]
            continue
        # a key with no colon yet inside an object
        if stack and stack[-1] == "{" and t.endswith('"'):
            q = t.rfind('"', 0, len(t) - 1)
            before = t[:q].rstrip()
            if before.endswith("{") or before.endswith(","):
                text = before
                continue
        text = t
        break
    closing = "".join("}" if b == "{" else "]" for b in reversed(stack))
    try:
        return json.loads(text + closing)
    except json.JSONDecodeError as e:
        if "Extra data" in e.msg:
            raise
        raise MalformedJSON(str(e)) from e


class _StandIns(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves the modules listed in ``modules`` (and their parent packages) when they are
    not found on the path: it sits last on ``sys.meta_path``."""

    def __init__(self, modules, aliases):
        self.modules = modules  # name -> dict of attributes
        self.aliases = aliases  # name -> module to copy
        self.packages = set()
        for name in list(modules) + list(aliases):
            parts = name.split(".")
            for k in range(1, len(parts)):
                self.packages.add(".".join(parts[:k]))

    def find_spec(self, name, path=None, target=None):
        if name in self.modules or name in self.aliases or name in self.packages:
            return importlib.machinery.ModuleSpec(
                name, self, is_package=name in self.packages
            )
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        name = module.__name__
        if name in self.packages:
            module.__path__ = []
        if name in self.aliases:
            target = importlib.import_module(self.aliases[name])
            module.__dict__.update(
                {k: v for k, v in target.__dict__.items() if not k.startswith("__")}
            )
        for k, v in self.modules.get(name, {}).items():
            module.__dict__[k] = v


def install_stand_ins(vllm_src):
    sys.path.insert(0, vllm_src)
    from pydantic import BaseModel, ConfigDict, model_validator

    class FunctionDefinition(BaseModel):
        name: str
        description: str | None = None
        parameters: dict | None = None

    class ChatCompletionToolsParam(BaseModel):
        type: str = "function"
        function: FunctionDefinition

    class ChatCompletionNamedToolChoiceParam(BaseModel):
        type: str = "function"
        function: dict

    class ChatCompletionRequest:
        """The request: only ``tools`` is read by the parsers' extraction paths."""

        def __init__(self, tools):
            self.tools = tools
            self.tool_choice = "auto"

    class Opaque:
        """A type named in a signature or an isinstance test, never constructed here."""

        def __init__(self, *a, **k):
            raise NotImplementedError("stand-in")

    def opaque(name):
        return type(name, (Opaque,), {})

    field_names = {}

    class OpenAIBaseModel(BaseModel):
        """The base of the protocol classes the parsers build (ToolCall, DeltaMessage, ...):
        extra fields allowed, and every validation compares the input's keys with the
        fields and their aliases, which vLLM does to log the keys it ignores."""

        model_config = ConfigDict(extra="allow")

        @model_validator(mode="wrap")
        @classmethod
        def _extra_fields(cls, data, handler):
            result = handler(data)
            if isinstance(data, dict):
                names = field_names.get(cls)
                if names is None:
                    names = {n for n, f in cls.model_fields.items()}
                    names |= {f.alias for f in cls.model_fields.values() if f.alias}
                    field_names[cls] = names
                if any(k not in names for k in data):
                    init_logger(__name__).warning("ignored fields: %s", data.keys() - names)
            return result

    class UsageInfo(OpenAIBaseModel):
        prompt_tokens: int = 0
        total_tokens: int = 0
        completion_tokens: int | None = 0

    class VLLMValidationError(ValueError):
        def __init__(self, message, *, parameter=None, value=None):
            super().__init__(message)
            self.parameter = parameter

    def make_tool_call_id(id_type="random", func_name=None, idx=None):
        """vLLM's tool call id: "chatcmpl-tool-" and a random UUID in hex."""
        if id_type == "kimi_k2":
            return f"functions.{func_name}:{idx}"
        return f"chatcmpl-tool-{uuid.uuid4().hex}"

    class StandInIjson:
        """ijson's names on mistral's pre-v11 path, which the v11 path never calls."""

        @staticmethod
        def coroutine(func):
            return func

        @staticmethod
        def parse_coro(target):
            raise NotImplementedError("stand-in: the pre-v11 path is not measured")

    def init_logger(name):
        logger = logging.getLogger(name)
        logger.propagate = False
        if not logger.handlers:
            logger.addHandler(logging.NullHandler())
        logger.setLevel(logging.WARNING)
        return logger

    envs = types.SimpleNamespace(  # vLLM's defaults
        VLLM_TOOL_PARSE_REGEX_TIMEOUT_SECONDS=1,
        VLLM_ENFORCE_STRICT_TOOL_CALLING=False,
        VLLM_MAX_STOP_STRINGS=4,
    )
    protocol = "vllm.frontend.entrypoints.generate.base.protocol"
    chat = {
        "ChatCompletionRequest": ChatCompletionRequest,
        "ChatCompletionToolsParam": ChatCompletionToolsParam,
        "ChatCompletionNamedToolChoiceParam": ChatCompletionNamedToolChoiceParam,
    }
    responses = {"ResponsesRequest": opaque("ResponsesRequest")}
    pjp_exceptions = types.SimpleNamespace(MalformedJSON=MalformedJSON)
    modules = {
        "vllm.logger": {"init_logger": init_logger},
        "vllm.foundation.observability.logger": {"init_logger": init_logger},
        "vllm.envs": vars(envs),
        "vllm.foundation.system.envs": vars(envs),
        "vllm.foundation.utilities.collection_utils": {
            "is_list_of": lambda v, t: isinstance(v, list) and all(isinstance(x, t) for x in v)
        },
        "vllm.foundation.utilities.import_utils": {
            "import_from_path": None,
            "resolve_obj_by_qualname": None,
        },
        "vllm.foundation.config.utils": {"replace": dataclasses.replace},
        "vllm.foundation.system.exceptions": {"VLLMValidationError": VLLMValidationError},
        "vllm.frontend.entrypoints.serve.engine.protocol": {
            "OpenAIBaseModel": OpenAIBaseModel,
            "UsageInfo": UsageInfo,
        },
        "vllm.frontend.entrypoints.chat_utils": {"make_tool_call_id": make_tool_call_id},
        "vllm.entrypoints.chat_utils": {"make_tool_call_id": make_tool_call_id},
        "vllm.utils.mistral": {"is_mistral_tokenizer": lambda t: False},
        "vllm.foundation.utilities.mistral": {"is_mistral_tokenizer": lambda t: False},
        "vllm.frontend.entrypoints.openai.chat_completion.protocol": chat,
        "vllm.entrypoints.openai.chat_completion.protocol": chat,
        "vllm.frontend.entrypoints.openai.responses.protocol": responses,
        "vllm.entrypoints.openai.responses.protocol": responses,
        "vllm.frontend.processing.sampling_params": {
            "StructuredOutputsParams": opaque("StructuredOutputsParams")
        },
        "vllm.sampling_params": {"StructuredOutputsParams": opaque("StructuredOutputsParams")},
        "vllm.reasoning.mistral_reasoning_parser": {
            "MistralReasoningParser": opaque("MistralReasoningParser")
        },
        "vllm.tokenizers.mistral": {
            "MistralTokenizer": opaque("MistralTokenizer"),
            "adapt_inplace_to_mistral_tool": None,
        },
        "mistral_common.protocol.instruct.tool_calls": {
            n: opaque(n) for n in ("NamedToolChoice", "Tool", "ToolChoice", "ToolChoiceEnum")
        },
        "ijson": {"coroutine": StandInIjson.coroutine, "parse_coro": StandInIjson.parse_coro},
        "vllm.frontend.processing.tokenizers": {"TokenizerLike": object},
        "vllm.tokenizers": {"TokenizerLike": object},
        "openai.types.responses": {
            n: opaque(n)
            for n in (
                "ResponseFormatTextJSONSchemaConfig",
                "ResponseTextConfig",
                "FunctionTool",
                "NamespaceTool",
                "ToolChoiceFunction",
            )
        },
        "openai.types.responses.function_tool": {
            "FunctionTool": opaque("FunctionTool")
        },
        "openai.types.responses.tool": {"Tool": opaque("ResponsesTool")},
        "transformers": {"PreTrainedTokenizerBase": object},
        "partial_json_parser": {
            "loads": _partial_json_loads,
            "core": types.SimpleNamespace(exceptions=pjp_exceptions),
        },
        "partial_json_parser.core.options": {"Allow": Allow},
        "partial_json_parser.core.exceptions": {"MalformedJSON": MalformedJSON},
    }
    aliases = {
        "vllm.entrypoints.openai.engine.protocol": protocol,
        "vllm.entrypoints.openai.protocol": protocol,
        "vllm.tool_parsers.abstract_tool_parser": (
            "vllm.frontend.processing.tool_parsers.abstract_tool_parser"
        ),
        "vllm.tool_parsers.utils": "vllm.frontend.processing.tool_parsers.utils",
    }
    # a module present under vllm_src is imported from there, not stood in for
    for name in list(modules) + list(aliases):
        rel = os.path.join(vllm_src, *name.split("."))
        if os.path.exists(rel + ".py") or os.path.isdir(rel):
            modules.pop(name, None)
            aliases.pop(name, None)
    sys.meta_path.append(_StandIns(modules, aliases))
    return ChatCompletionRequest, ChatCompletionToolsParam


def load_parser(fmt, vllm_src):
    module, cls = PARSERS[fmt]
    for pkg in ("vllm.frontend.processing.tool_parsers", "vllm.tool_parsers"):
        if os.path.exists(os.path.join(vllm_src, *pkg.split("."), module + ".py")):
            return getattr(importlib.import_module(f"{pkg}.{module}"), cls)
    raise SystemExit(f"{module}.py is in neither vllm/frontend/processing/tool_parsers nor "
                     f"vllm/tool_parsers under {vllm_src}")


# ---------------------------------------------------------------------------------------
# Deltas and token ids


def deltas(text, markers, width=4):
    """Each special token alone; the text between them in pieces of ``width`` code points.
    Returns [(delta_text, [token ids])]."""
    vocab = {m: 100 + i for i, m in enumerate(markers)}
    out = []
    i = 0
    n = len(text)
    firsts = {m[0] for m in markers}
    while i < n:
        if text[i] in firsts:
            hit = None
            for m in markers:
                if text.startswith(m, i) and (hit is None or len(m) > len(hit)):
                    hit = m
            if hit:
                out.append((hit, [vocab[hit]]))
                i += len(hit)
                continue
        j = i
        while j < n and j - i < width:
            if text[j] in firsts and any(text.startswith(m, j) for m in markers):
                break
            j += 1
        out.append((text[i:j], [ORDINARY_ID]))
        i = j
    return out


# ---------------------------------------------------------------------------------------
# Running and checking


def nominal_size(length, sizes):
    """The requested size an input was built for (inputs run a little over it), or None
    when it is not one of ``sizes``; every length is accepted when ``sizes`` is empty."""
    if not sizes:
        return length
    best = min(sizes, key=lambda s: abs(math.log(length / s)))
    return best if 0.5 <= length / best <= 2 else None


def batch_once(cls, tok, request, text):
    p = cls(tok)
    r = p.extract_tool_calls(text, request)
    return r


def stream_once(cls, tok, request, ds, cap_ns=None):
    """Streams the deltas through a new parser; returns (message dict, deltas done)."""
    p = cls(tok)
    previous = ""
    prev_ids = []
    content = []
    calls = {}
    start = time.perf_counter_ns()
    done = 0
    for text, ids in ds:
        current = previous + text
        cur_ids = prev_ids + ids
        d = p.extract_tool_calls_streaming(previous, current, text, prev_ids, cur_ids, ids, request)
        if d is not None:
            if d.content:
                content.append(d.content)
            for tc in d.tool_calls or []:
                f = tc.function
                if isinstance(f, dict):
                    name, args = f.get("name"), f.get("arguments")
                elif f is not None:
                    name, args = f.name, f.arguments
                else:
                    name = args = None
                c = calls.setdefault(tc.index, {"name": None, "arguments": ""})
                if name and not c["name"]:
                    c["name"] = name
                if args:
                    c["arguments"] += args
        previous = current
        prev_ids = cur_ids
        done += 1
        if cap_ns is not None and (done & 63) == 0 and time.perf_counter_ns() - start > cap_ns:
            break
    msg = {
        "content": "".join(content),
        "tool_calls": [calls[k] for k in sorted(calls)],
    }
    return msg, done


def batch_message(r):
    return {
        "content": r.content or "",
        "tool_calls": [
            {"name": tc.function.name, "arguments": tc.function.arguments} for tc in r.tool_calls
        ],
    }


def _args(a):
    try:
        return json.loads(a) if a not in (None, "") else {}
    except (json.JSONDecodeError, TypeError):
        return ("unparsable", a)


def check(got, expected):
    """'ok', or what differs: the calls (names and decoded arguments), the content."""
    exp_calls = [(c["name"], _args(c["arguments"])) for c in expected.get("tool_calls", [])]
    got_calls = [(c["name"], _args(c["arguments"])) for c in got["tool_calls"]]
    exp_content = expected.get("content") or ""
    got_content = got["content"] or ""
    problems = []
    if got_calls != exp_calls:
        same = sum(1 for a, b in zip(got_calls, exp_calls) if a == b)
        problems.append(f"calls {same}/{len(exp_calls)} equal, {len(got_calls)} returned")
    if got_content != exp_content:
        if got_content.strip() == exp_content.strip():
            problems.append("content differs in outer white space")
        else:
            problems.append(f"content {len(got_content)} chars, expected {len(exp_content)}")
    return "ok" if not problems else "; ".join(problems)


def timed(fn, budget_s, min_rounds=5):
    """Per-call ns: runs ``fn`` in rounds until the budget is spent; (best, median, calls)."""
    t0 = time.perf_counter_ns()
    fn()
    first = time.perf_counter_ns() - t0
    per_round = max(1, int(budget_s * 1e9 / min_rounds / max(first, 1)))
    samples = []
    calls = 0
    deadline = time.perf_counter_ns() + int(budget_s * 1e9)
    while len(samples) < min_rounds or time.perf_counter_ns() < deadline:
        t = time.perf_counter_ns()
        for _ in range(per_round):
            fn()
        samples.append((time.perf_counter_ns() - t) / per_round)
        calls += per_round
        if len(samples) >= 200:
            break
    return min(samples), statistics.median(samples), calls


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vllm", required=True, help="directory holding the vllm package sources")
    ap.add_argument("--inputs", required=True, help="directory written by matrix.sh --inputs")
    ap.add_argument("--formats", default=",".join(PARSERS))
    ap.add_argument("--kinds", default="prose,longcall,calls,corpus")
    ap.add_argument("--sizes", default="", help="the sizes to run (default: all in inputs.tsv)")
    ap.add_argument("--budget", type=float, default=1.0, help="seconds of timing per row")
    ap.add_argument("--stream-cap", type=float, default=20.0, help="seconds at most per stream")
    ap.add_argument("--json", required=True)
    ap.add_argument("--table")
    a = ap.parse_args()

    request_cls, tool_cls = install_stand_ins(os.path.abspath(a.vllm))
    formats = a.formats.split(",")
    kinds = a.kinds.split(",")
    sizes = {int(s) for s in a.sizes.split(",") if s}
    rows = []
    with open(os.path.join(a.inputs, "inputs.tsv"), encoding="utf-8") as f:
        index = [line.rstrip("\n").split("\t") for line in f][1:]
    for fmt, kind, size, chars, path in index:
        if fmt not in formats or kind not in kinds:
            continue
        nominal = nominal_size(int(size), sizes)
        if nominal is None:
            continue
        base = os.path.join(a.inputs, path[: -len(".txt")])
        with open(base + ".txt", encoding="utf-8") as f:
            text = f.read()
        with open(base + ".expected.json", encoding="utf-8") as f:
            expected = json.load(f)
        with open(base + ".tools.json", encoding="utf-8") as f:
            tools = [tool_cls.model_validate(t) if "function" in t else
                     tool_cls(function=t) for t in json.load(f)]
        request = request_cls(tools)
        cls = load_parser(fmt, os.path.abspath(a.vllm))
        tok = StandInTokenizer(MARKERS[fmt])
        ds = deltas(text, MARKERS[fmt])
        row = {"format": fmt, "kind": kind, "size": nominal, "length": int(size), "chars": int(chars),
               "deltas": len(ds), "input": path}
        # batch
        msg = batch_message(batch_once(cls, tok, request, text))
        row["batch_check"] = check(msg, expected)
        best, med, n = timed(lambda: batch_once(cls, tok, request, text), a.budget)
        row.update(batch_best_us=best / 1e3, batch_median_us=med / 1e3, batch_calls=n)
        # streaming: once with the cap, checked; timed only when it finished well within it
        cap = int(a.stream_cap * 1e9)
        t0 = time.perf_counter_ns()
        smsg, done = stream_once(cls, tok, request, ds, cap)
        first = time.perf_counter_ns() - t0
        if done < len(ds):
            row.update(stream_check=f"stopped after {done} of {len(ds)} deltas",
                       stream_best_us=first / 1e3, stream_median_us=first / 1e3,
                       stream_lower_bound=True, stream_deltas_done=done)
        else:
            row["stream_check"] = check(smsg, expected)
            if first * 5 < a.stream_cap * 1e9:
                best, med, n = timed(lambda: stream_once(cls, tok, request, ds), a.budget,
                                     min_rounds=3 if first > 2e8 else 5)
            else:
                best = med = first
            row.update(stream_best_us=best / 1e3, stream_median_us=med / 1e3,
                       stream_lower_bound=False)
        row["stream_us_per_delta"] = row["stream_best_us"] / max(row.get("stream_deltas_done", len(ds)), 1)
        rows.append(row)
        print(f"{fmt:12} {kind:9} {size:>8}  batch {row['batch_best_us']:12.1f} us [{row['batch_check']}]"
              f"  stream {'>' if row['stream_lower_bound'] else ' '}{row['stream_best_us']:14.1f} us"
              f" ({row['stream_us_per_delta']:.2f} us/delta) [{row['stream_check']}]", flush=True)
    with open(a.json, "w", encoding="utf-8") as f:
        json.dump({"python": sys.version.split()[0], "vllm_src": os.path.abspath(a.vllm),
                   "budget_s": a.budget, "stream_cap_s": a.stream_cap, "rows": rows}, f, indent=1)
    if a.table:
        with open(a.table, "w", encoding="utf-8") as f:
            f.write("| format | kind | size | batch µs (best / median) | batch check | stream µs | µs per delta | stream check |\n")
            f.write("|---|---|---|---|---|---|---|---|\n")
            for r in rows:
                lb = ">" if r["stream_lower_bound"] else ""
                f.write(f"| {r['format']} | {r['kind']} | {r['size']} | {r['batch_best_us']:.1f} / {r['batch_median_us']:.1f} "
                        f"| {r['batch_check']} | {lb}{r['stream_best_us']:.1f} | {lb}{r['stream_us_per_delta']:.2f} | {r['stream_check']} |\n")


if __name__ == "__main__":
    main()
