package dev.toolcalls;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A model's token vocabulary, read from its own Hugging Face files ({@code tokenizer.json}, and
 * {@code tokenizer_config.json} beside it when present): what each token id decodes to, and which
 * ids are added tokens (atomic pieces such as {@code <tool_call>} or {@code <|im_end|>}) and which
 * of those are flagged special. Immutable and safe to share across threads; load it once per model.
 *
 * <pre>{@code
 * Vocabulary vocab = Vocabulary.load(Path.of("/models/Qwen3-8B"));        // folder or tokenizer.json
 * StreamParser parser = format.newStream(tools, options, vocab);
 * for (int[] ids : sampled) for (ParseEvent e : parser.feedTokens(ids)) send(e);
 * for (ParseEvent e : parser.finish()) send(e);
 * }</pre>
 *
 * <p>Decoders read: byte-level BPE ({@code ByteLevel}: GPT-2, Qwen, Llama 3, DeepSeek, gpt-oss),
 * and the piece decoders of SentencePiece-style vocabularies ({@code Metaspace}, or a {@code
 * Sequence} of {@code Replace}, {@code ByteFallback}, {@code Fuse} and {@code Strip}: Gemma, Llama
 * 2, Mistral), where {@code ▁} is a space and {@code <0xNN>} is one byte. Decoding is exact: no
 * space clean-up, no normalization, a character whose UTF-8 bytes are split over several ids comes
 * out once, whole, and bytes that are not UTF-8 are an error, never U+FFFD.
 */
public final class Vocabulary {
    static final byte PRESENT = 1;
    static final byte ADDED = 2;
    static final byte SPECIAL = 4;

    /** GPT-2's byte-level alphabet: the character that stands for each byte. */
    private static final char[] BYTE_CHAR = new char[256];

    /** The inverse of {@link #BYTE_CHAR}, indexed by character (-1: not a byte character). */
    private static final short[] CHAR_BYTE = new short[324];

    static {
        Arrays.fill(CHAR_BYTE, (short) -1);
        int n = 0;
        for (int b = 0; b < 256; b++) {
            boolean printable = b >= '!' && b <= '~' || b >= 0xA1 && b <= 0xAC || b >= 0xAE;
            char c = printable ? (char) b : (char) (256 + n++);
            BYTE_CHAR[b] = c;
            CHAR_BYTE[c] = (short) b;
        }
    }

    private final String source;
    private final String decoderName;
    private final byte[] data;
    private final int[] start;
    private final byte[] flags;
    private final Map<String, Integer> added;
    private final char stripChar;
    private final int stripCount;

    /**
     * The text of each id whose bytes are whole UTF-8 characters, made when first needed ({@link
     * #NOT_WHOLE} for the others); a String is immutable, so a race only makes it twice.
     */
    private final String[] texts;

    /** Marks an id whose bytes are not whole characters on their own. */
    private static final String NOT_WHOLE = new String("not whole");

    private Vocabulary(
            String source,
            String decoderName,
            byte[] data,
            int[] start,
            byte[] flags,
            Map<String, Integer> added,
            char stripChar,
            int stripCount) {
        this.source = source;
        this.decoderName = decoderName;
        this.data = data;
        this.start = start;
        this.flags = flags;
        this.added = added;
        this.stripChar = stripChar;
        this.stripCount = stripCount;
        this.texts = new String[flags.length];
    }

    /**
     * The id's text when its bytes are whole UTF-8 characters; null otherwise. The id is present.
     */
    private String wholeText(int id) {
        String t = texts[id];
        if (t == null) {
            int s = start[id];
            try {
                t =
                        StandardCharsets.UTF_8
                                .newDecoder()
                                .decode(ByteBuffer.wrap(data, s, start[id + 1] - s))
                                .toString();
            } catch (CharacterCodingException e) {
                t = NOT_WHOLE;
            }
            texts[id] = t;
        }
        return t == NOT_WHOLE ? null : t;
    }

    /**
     * Reads a vocabulary: {@code path} is a model folder holding {@code tokenizer.json}, or that
     * file; {@code tokenizer_config.json} in the same folder, when there, adds and flags tokens
     * through its {@code added_tokens_decoder}.
     *
     * @throws IOException when a file cannot be read, is not JSON, or holds a model or decoder this
     *     class does not read (the message names the file and what is wrong)
     */
    public static Vocabulary load(Path path) throws IOException {
        Path file = Files.isDirectory(path) ? path.resolve("tokenizer.json") : path;
        if (!Files.isRegularFile(file))
            throw new IOException(
                    file
                            + ": no such file (a tokenizer is a folder holding tokenizer.json, or that file)");
        Path config = file.resolveSibling("tokenizer_config.json");
        try (Reader tokenizer = reader(file);
                Reader cfg = Files.isRegularFile(config) ? reader(config) : null) {
            return read(tokenizer, cfg, file.toString());
        }
    }

    private static Reader reader(Path file) throws IOException {
        return new BufferedReader(
                new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8), 1 << 16);
    }

    /**
     * Reads a vocabulary from the text of {@code tokenizer.json} and, unless null, of {@code
     * tokenizer_config.json}.
     *
     * @param name what error messages call the tokenizer (its path)
     */
    public static Vocabulary read(Reader tokenizerJson, Reader tokenizerConfig, String name)
            throws IOException {
        try {
            return new Loader(name).load(tokenizerJson, tokenizerConfig);
        } catch (IOException | RuntimeException e) { // Gson's malformed-JSON and state errors
            if (e instanceof IOException
                    && e.getMessage() != null
                    && e.getMessage().startsWith(name + ": ")) throw (IOException) e;
            throw new IOException(name + ": not a tokenizer.json: " + e.getMessage(), e);
        }
    }

    /** One past the largest id. */
    public int size() {
        return flags.length;
    }

    /** Whether {@code id} is a token of this vocabulary. */
    public boolean contains(int id) {
        return id >= 0 && id < flags.length && (flags[id] & PRESENT) != 0;
    }

    /**
     * An added token: one atomic piece (a model's control and marker tokens) that ordinary text is
     * never merged into, whatever its {@link #isSpecial special} flag.
     */
    public boolean isAdded(int id) {
        return contains(id) && (flags[id] & ADDED) != 0;
    }

    /** An added token flagged {@code "special": true} (the ones a server may hide). */
    public boolean isSpecial(int id) {
        return contains(id) && (flags[id] & SPECIAL) != 0;
    }

    /** The id of the added token spelled {@code text}, or -1 when no added token is. */
    public int addedId(String text) {
        Integer id = added.get(text);
        return id == null ? -1 : id;
    }

    /** The texts of the added tokens, in id order. */
    public List<String> addedTokens() {
        List<String> out = new ArrayList<>(added.keySet());
        out.sort((a, b) -> Integer.compare(added.get(a), added.get(b)));
        return Collections.unmodifiableList(out);
    }

    /** The bytes id decodes to on its own (before the start-of-output rules). */
    public byte[] bytes(int id) {
        check(id, -1);
        return Arrays.copyOfRange(data, start[id], start[id + 1]);
    }

    /**
     * For display: the text id decodes to on its own when that is UTF-8, else its bytes written
     * {@code <0xNN>} each (one piece of a character split over several ids).
     */
    public String piece(int id) {
        byte[] b = bytes(id);
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException e) {
            StringBuilder s = new StringBuilder();
            for (byte x : b) s.append(String.format("<0x%02X>", x & 0xFF));
            return s.toString();
        }
    }

    /**
     * The exact text of a whole output's ids, added tokens included.
     *
     * @throws IllegalArgumentException for an id outside the vocabulary, or ids whose bytes are not
     *     UTF-8 (a stray byte, or the output ends inside a character)
     */
    public String decode(int... ids) {
        Decoder d = new Decoder(this);
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < ids.length) {
            i = d.ordinary(ids, i, ids.length, out, i);
            if (i < ids.length) out.append(d.added(ids[i], i++));
        }
        d.end(ids.length);
        return out.toString();
    }

    /** Where the vocabulary was read from, and its decoder. */
    @Override
    public String toString() {
        return source + " (" + size() + " ids, " + added.size() + " added, " + decoderName + ")";
    }

    void check(int id, long index) {
        if (!contains(id))
            throw new IllegalArgumentException(
                    "token id "
                            + id
                            + (index >= 0 ? " (the output's id number " + index + ")" : "")
                            + " is not in the vocabulary "
                            + source
                            + " (ids 0.."
                            + (size() - 1)
                            + ")");
    }

    /**
     * Turns one stream's ids into text: ordinary ids are decoded with a carry of the bytes of a
     * character not yet whole; an added token is its own text. One per stream; not thread-safe.
     */
    static final class Decoder {
        private final Vocabulary v;
        private final byte[] carry = new byte[4];
        private int carried;
        private int need;
        private int leading;

        /** Bytes decoded so far, for error messages. */
        private long bytes;

        Decoder(Vocabulary v) {
            this.v = v;
            this.leading = v.stripCount;
        }

        /**
         * Appends the text of ordinary ids from {@code from} up to the first added token or {@code
         * to}, and returns where it stopped; {@code at} is the output's id number of {@code
         * ids[from]}.
         */
        int ordinary(int[] ids, int from, int to, StringBuilder out, long at) {
            byte[] flags = v.flags;
            byte[] data = v.data;
            int[] start = v.start;
            for (int i = from; i < to; i++) {
                int id = ids[i];
                if (id < 0 || id >= flags.length || (flags[id] & PRESENT) == 0)
                    v.check(id, at + i - from);
                if ((flags[id] & ADDED) != 0) return i;
                int end = start[id + 1];
                for (int p = start[id]; p < end; p++) {
                    int b = data[p] & 0xFF;
                    if (need == 0 && b < 0x80) {
                        if (leading > 0) {
                            if (b == v.stripChar) {
                                leading--;
                                bytes++;
                                continue;
                            }
                            leading = 0;
                        }
                        out.append((char) b);
                    } else {
                        take(b, id, at + i - from, out);
                    }
                    bytes++;
                }
            }
            return to;
        }

        /**
         * The text of {@code ids[from]} when it is an ordinary id that makes the whole run of
         * ordinary ids up to {@code to} or the next added token, and its bytes are whole characters
         * after a whole character; null otherwise (then {@link #ordinary} decodes it). Allocates
         * nothing once the id's text was made.
         */
        String alone(int[] ids, int from, int to) {
            if (need > 0 || leading > 0) return null;
            int id = ids[from];
            if (!v.contains(id) || (v.flags[id] & ADDED) != 0) return null;
            if (from + 1 < to && !v.isAdded(ids[from + 1])) return null;
            String t = v.wholeText(id);
            if (t != null) bytes += v.start[id + 1] - v.start[id];
            return t;
        }

        /** The text of an added token; the character before it must be whole. */
        String added(int id, long index) {
            if (need > 0) throw cut(id, index);
            leading = 0;
            String t = v.wholeText(id);
            if (t != null) return t;
            int s = v.start[id];
            return new String(v.data, s, v.start[id + 1] - s, StandardCharsets.UTF_8);
        }

        /** The output ends: no character may be left half. */
        void end(long index) {
            if (need > 0) throw cut(-1, index);
        }

        private void take(int b, int id, long index, StringBuilder out) {
            if (need == 0) {
                int n;
                if (b >= 0xC2 && b <= 0xDF) n = 2;
                else if (b >= 0xE0 && b <= 0xEF) n = 3;
                else if (b >= 0xF0 && b <= 0xF4) n = 4;
                else throw bad(b, id, index);
                carry[0] = (byte) b;
                carried = 1;
                need = n - 1;
                return;
            }
            if ((b & 0xC0) != 0x80) throw bad(b, id, index);
            if (carried == 1) { // the second byte bounds overlong forms, surrogates, > U+10FFFF
                int lead = carry[0] & 0xFF;
                if (lead == 0xE0 && b < 0xA0
                        || lead == 0xED && b > 0x9F
                        || lead == 0xF0 && b < 0x90
                        || lead == 0xF4 && b > 0x8F) throw bad(b, id, index);
            }
            carry[carried++] = (byte) b;
            if (--need > 0) return;
            int lead = carry[0] & 0xFF;
            int cp;
            if (carried == 2) cp = (lead & 0x1F) << 6 | carry[1] & 0x3F;
            else if (carried == 3)
                cp = (lead & 0x0F) << 12 | (carry[1] & 0x3F) << 6 | carry[2] & 0x3F;
            else
                cp =
                        (lead & 0x07) << 18
                                | (carry[1] & 0x3F) << 12
                                | (carry[2] & 0x3F) << 6
                                | carry[3] & 0x3F;
            out.appendCodePoint(cp);
            carried = 0;
            leading = 0;
        }

        private IllegalArgumentException bad(int b, int id, long index) {
            need = 0;
            carried = 0;
            return new IllegalArgumentException(
                    String.format(
                            "token ids are not UTF-8: byte 0x%02X at byte offset %d of the decoded output, in token id %d (the output's id number %d)",
                            b, bytes, id, index));
        }

        private IllegalArgumentException cut(int id, long index) {
            String where =
                    id < 0
                            ? "the output ends"
                            : "added token id "
                                    + id
                                    + " (the output's id number "
                                    + index
                                    + ") comes";
            int had = carried;
            need = 0;
            carried = 0;
            return new IllegalArgumentException(
                    "token ids are not UTF-8: "
                            + where
                            + " inside a character ("
                            + had
                            + " of its bytes at byte offset "
                            + (bytes - had)
                            + " of the decoded output)");
        }
    }

    /** Reads the files; one per load. */
    private static final class Loader {
        private final String name;
        private String decoderName = "no decoder";
        private boolean byteLevel;
        private boolean byteFallback;
        private final List<String[]> replace = new ArrayList<>();
        private char stripChar = ' ';
        private int stripCount;

        /** Added tokens by id: content, special. */
        private final Map<Integer, Object[]> addedTokens = new LinkedHashMap<>();

        private String[] pieces = new String[1 << 17];
        private int[] ids = new int[1 << 17];
        private int count;
        private int maxId = -1;

        Loader(String name) {
            this.name = name;
        }

        Vocabulary load(Reader tokenizer, Reader config) throws IOException {
            JsonReader r = new JsonReader(tokenizer);
            boolean sawModel = false;
            boolean sawDecoder = false;
            r.beginObject();
            while (r.hasNext()) {
                switch (r.nextName()) {
                    case "added_tokens" -> readAdded(r);
                    case "decoder" -> {
                        if (r.peek() == JsonToken.NULL) r.nextNull();
                        else {
                            decoder(JsonParser.parseReader(r).getAsJsonObject());
                            sawDecoder = true;
                        }
                    }
                    case "model" -> {
                        readModel(r);
                        sawModel = true;
                    }
                    default -> r.skipValue();
                }
            }
            r.endObject();
            if (!sawModel) throw new IOException(name + ": no \"model\" object");
            if (!sawDecoder)
                throw new IOException(
                        name
                                + ": no \"decoder\": tokens would be joined with spaces, which is not a decoding this library reads");
            if (config != null) readConfig(config);
            return build();
        }

        private void readAdded(JsonReader r) throws IOException {
            r.beginArray();
            while (r.hasNext()) {
                int id = -1;
                String content = null;
                boolean special = false;
                r.beginObject();
                while (r.hasNext()) {
                    switch (r.nextName()) {
                        case "id" -> id = r.nextInt();
                        case "content" -> content = r.nextString();
                        case "special" -> special = r.nextBoolean();
                        default -> r.skipValue();
                    }
                }
                r.endObject();
                if (id < 0 || content == null)
                    throw new IOException(name + ": an added token without id or content");
                addedTokens.put(id, new Object[] {content, special});
            }
            r.endArray();
        }

        private void readConfig(Reader config) throws IOException {
            JsonReader r = new JsonReader(config);
            r.beginObject();
            while (r.hasNext()) {
                if (!r.nextName().equals("added_tokens_decoder")) {
                    r.skipValue();
                    continue;
                }
                r.beginObject();
                while (r.hasNext()) {
                    int id;
                    String key = r.nextName();
                    try {
                        id = Integer.parseInt(key);
                    } catch (NumberFormatException e) {
                        throw new IOException(
                                name
                                        + ": tokenizer_config.json: added_tokens_decoder key "
                                        + key
                                        + " is not an id");
                    }
                    String content = null;
                    boolean special = false;
                    r.beginObject();
                    while (r.hasNext()) {
                        switch (r.nextName()) {
                            case "content" -> content = r.nextString();
                            case "special" -> special = r.nextBoolean();
                            default -> r.skipValue();
                        }
                    }
                    r.endObject();
                    if (content != null) addedTokens.put(id, new Object[] {content, special});
                }
                r.endObject();
            }
            r.endObject();
        }

        private void readModel(JsonReader r) throws IOException {
            r.beginObject();
            while (r.hasNext()) {
                switch (r.nextName()) {
                    case "vocab" -> {
                        if (r.peek() == JsonToken.BEGIN_OBJECT) {
                            r.beginObject();
                            while (r.hasNext()) add(r.nextName(), r.nextInt());
                            r.endObject();
                        } else { // Unigram: [[piece, score], ...], the id is the index
                            r.beginArray();
                            int id = 0;
                            while (r.hasNext()) {
                                r.beginArray();
                                String piece = r.nextString();
                                while (r.hasNext()) r.skipValue();
                                r.endArray();
                                add(piece, id++);
                            }
                            r.endArray();
                        }
                    }
                    case "byte_fallback" -> {
                        if (r.peek() == JsonToken.BOOLEAN) byteFallback |= r.nextBoolean();
                        else r.skipValue();
                    }
                    default -> r.skipValue();
                }
            }
            r.endObject();
        }

        private void add(String piece, int id) throws IOException {
            if (id < 0) throw new IOException(name + ": negative id " + id + " for " + piece);
            if (count == pieces.length) {
                pieces = Arrays.copyOf(pieces, count * 2);
                ids = Arrays.copyOf(ids, count * 2);
            }
            pieces[count] = piece;
            ids[count++] = id;
            if (id > maxId) maxId = id;
        }

        private void decoder(JsonObject d) throws IOException {
            String type = d.has("type") ? d.get("type").getAsString() : "";
            switch (type) {
                case "ByteLevel" -> byteLevel = true;
                case "ByteFallback" -> byteFallback = true;
                case "Fuse" -> {}
                case "Replace" -> {
                    JsonElement pattern = d.getAsJsonObject("pattern").get("String");
                    if (pattern == null)
                        throw new IOException(
                                name + ": a Replace decoder with a regex pattern is not read");
                    replace.add(
                            new String[] {pattern.getAsString(), d.get("content").getAsString()});
                }
                case "Metaspace" -> {
                    String rep = d.has("replacement") ? d.get("replacement").getAsString() : "▁";
                    replace.add(new String[] {rep, " "});
                    String scheme =
                            d.has("prepend_scheme")
                                    ? d.get("prepend_scheme").getAsString()
                                    : d.has("add_prefix_space")
                                                    && d.get("add_prefix_space").getAsBoolean()
                                            ? "always"
                                            : "never";
                    if (!scheme.equals("never")) {
                        stripChar = ' ';
                        stripCount = 1;
                    }
                }
                case "Strip" -> {
                    String content = d.get("content").getAsString();
                    int startCount = d.get("start").getAsInt();
                    int stop = d.get("stop").getAsInt();
                    if (stop > 0 || content.length() != 1 || content.charAt(0) >= 0x80)
                        throw new IOException(
                                name
                                        + ": a Strip decoder that strips the end, or not one ASCII character, is not read");
                    stripChar = content.charAt(0);
                    stripCount = startCount;
                }
                case "Sequence" -> {
                    JsonArray list = d.getAsJsonArray("decoders");
                    for (JsonElement e : list) decoder(e.getAsJsonObject());
                }
                default ->
                        throw new IOException(
                                name
                                        + ": decoder "
                                        + type
                                        + " is not read (ByteLevel, Metaspace, Replace, ByteFallback, Fuse, Strip are)");
            }
            decoderName =
                    byteLevel
                            ? "byte-level"
                            : "pieces" + (byteFallback ? " with byte fallback" : "");
        }

        private Vocabulary build() throws IOException {
            for (int id : addedTokens.keySet()) maxId = Math.max(maxId, id);
            int size = maxId + 1;
            byte[] flags = new byte[size];
            byte[][] addedBytes = new byte[size][];
            Map<String, Integer> addedIds = new HashMap<>();
            for (Map.Entry<Integer, Object[]> e : addedTokens.entrySet()) {
                int id = e.getKey();
                String content = (String) e.getValue()[0];
                flags[id] = (byte) (PRESENT | ADDED | ((Boolean) e.getValue()[1] ? SPECIAL : 0));
                addedBytes[id] = encode(content);
                addedIds.put(content, id);
            }
            int[] length = new int[size + 1];
            byte[][] tmp = new byte[count][];
            long total = 0;
            for (int i = 0; i < count; i++) {
                int id = ids[i];
                if (addedBytes[id] != null) continue;
                if ((flags[id] & PRESENT) != 0)
                    throw new IOException(name + ": id " + id + " has two tokens");
                flags[id] = PRESENT;
                tmp[i] = encode(pieces[i]);
                length[id] = tmp[i].length;
            }
            for (int id = 0; id < size; id++)
                if (addedBytes[id] != null) length[id] = addedBytes[id].length;
            int[] start = new int[size + 1];
            for (int id = 0; id < size; id++) {
                start[id + 1] = start[id] + length[id];
                total += length[id];
            }
            if (total > Integer.MAX_VALUE - 8)
                throw new IOException(name + ": vocabulary too large");
            byte[] data = new byte[(int) total];
            for (int i = 0; i < count; i++)
                if (tmp[i] != null) System.arraycopy(tmp[i], 0, data, start[ids[i]], tmp[i].length);
            for (int id = 0; id < size; id++)
                if (addedBytes[id] != null)
                    System.arraycopy(addedBytes[id], 0, data, start[id], addedBytes[id].length);
            return new Vocabulary(
                    name,
                    decoderName,
                    data,
                    start,
                    flags,
                    Collections.unmodifiableMap(addedIds),
                    stripChar,
                    stripCount);
        }

        /** The bytes one token stands for, by the decoder's rules. */
        private byte[] encode(String piece) {
            if (byteLevel) {
                byte[] out = new byte[piece.length()];
                for (int i = 0; i < piece.length(); i++) {
                    char c = piece.charAt(i);
                    int b = c < CHAR_BYTE.length ? CHAR_BYTE[c] : -1;
                    if (b < 0) return piece.getBytes(StandardCharsets.UTF_8); // not byte-level
                    out[i] = (byte) b;
                }
                return out;
            }
            if (byteFallback
                    && piece.length() == 6
                    && piece.startsWith("<0x")
                    && piece.charAt(5) == '>') {
                int hi = Character.digit(piece.charAt(3), 16);
                int lo = Character.digit(piece.charAt(4), 16);
                if (hi >= 0 && lo >= 0) return new byte[] {(byte) (hi << 4 | lo)};
            }
            String text = piece;
            for (String[] r : replace) text = text.replace(r[0], r[1]);
            return text.getBytes(StandardCharsets.UTF_8);
        }
    }
}
