package dev.toolcalls.cli;

import com.google.gson.JsonObject;

import dev.toolcalls.Vocabulary;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code tokens --tokenizer PATH (--ids 1,2,3 | --text TEXT)}: what a model's vocabulary makes of
 * token ids, or which pieces of a text are its added tokens, for debugging token input.
 */
@Command(
        name = "tokens",
        sortOptions = false,
        description =
                "Prints what a model's vocabulary makes of token ids (one JSON line per id: id, piece, added, special; then the "
                        + "decoded text), or splits a text into its added tokens and the ordinary text between them.")
final class TokensCommand implements Callable<Integer>, Main.IoAware {
    @Option(
            names = "--tokenizer",
            required = true,
            paramLabel = "PATH",
            description =
                    "a folder holding tokenizer.json (and tokenizer_config.json), or tokenizer.json")
    Path tokenizer;

    @Option(
            names = "--ids",
            paramLabel = "ID,ID,...",
            split = ",",
            description = "token ids to decode")
    List<String> ids;

    @Option(
            names = "--text",
            paramLabel = "TEXT",
            description =
                    "text to split into added tokens (with their ids) and ordinary text (not encoded: the merges are not read)")
    String text;

    private PrintStream out;

    @Override
    public void io(PrintStream out, PrintStream err, InputStream in) {
        this.out = out;
    }

    @Override
    public Integer call() {
        if ((ids == null) == (text == null))
            throw new Main.UsageException("give --ids or --text (one of them)");
        Vocabulary v;
        try {
            v = Vocabulary.load(tokenizer);
        } catch (IOException e) {
            throw new Main.UsageException("--tokenizer: " + e.getMessage());
        }
        if (ids != null) return ids(v);
        return text(v);
    }

    private int ids(Vocabulary v) {
        int[] all = new int[ids.size()];
        for (int i = 0; i < all.length; i++) {
            String s = ids.get(i).strip();
            try {
                all[i] = Integer.parseInt(s);
            } catch (NumberFormatException e) {
                throw new Main.UsageException("--ids: '" + s + "' is not a token id");
            }
            if (!v.contains(all[i]))
                throw new Main.UsageException("--ids: " + all[i] + " is not a token of " + v);
        }
        for (int id : all) {
            JsonObject line = new JsonObject();
            line.addProperty("id", id);
            line.addProperty("piece", v.piece(id));
            line.addProperty("added", v.isAdded(id));
            line.addProperty("special", v.isSpecial(id));
            out.println(ErrorJson.GSON.toJson(line));
        }
        JsonObject decoded = new JsonObject();
        try {
            decoded.addProperty("text", v.decode(all));
        } catch (IllegalArgumentException e) {
            JsonObject error = ErrorJson.of("invalid_utf8", e.getMessage(), null, null);
            out.println(ErrorJson.wrap(error));
            out.flush();
            return Main.FAILED;
        }
        out.println(ErrorJson.GSON.toJson(decoded));
        out.flush();
        return 0;
    }

    /** The text cut at its added tokens, the longest first at each position. */
    private int text(Vocabulary v) {
        Map<Character, List<String>> byFirst = new HashMap<>();
        for (String t : v.addedTokens())
            if (!t.isEmpty()) byFirst.computeIfAbsent(t.charAt(0), c -> new ArrayList<>()).add(t);
        for (List<String> l : byFirst.values())
            l.sort(Comparator.comparingInt(String::length).reversed());
        int plain = 0;
        int i = 0;
        while (i < text.length()) {
            String found = null;
            for (String t : byFirst.getOrDefault(text.charAt(i), List.of()))
                if (text.startsWith(t, i)) {
                    found = t;
                    break;
                }
            if (found == null) {
                i++;
                continue;
            }
            ordinary(plain, i);
            JsonObject line = new JsonObject();
            int id = v.addedId(found);
            line.addProperty("id", id);
            line.addProperty("piece", found);
            line.addProperty("added", true);
            line.addProperty("special", v.isSpecial(id));
            out.println(ErrorJson.GSON.toJson(line));
            i += found.length();
            plain = i;
        }
        ordinary(plain, text.length());
        out.flush();
        return 0;
    }

    private void ordinary(int from, int to) {
        if (from >= to) return;
        JsonObject line = new JsonObject();
        line.add("id", null);
        line.addProperty("text", text.substring(from, to));
        line.addProperty("added", false);
        out.println(ErrorJson.GSON.toJson(line));
    }
}
