package dev.toolcalls.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Cuts text the way {@code parse --stream} and {@code serve} do: 1..max code points, lengths from {@code new Random(seed)}. */
public final class Chunker {
    private Chunker() { }

    public static List<String> split(String text, int max, long seed) {
        Random random = new Random(seed);
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            int n = 1 + random.nextInt(max);
            int end = i;
            for (int k = 0; k < n && end < text.length(); k++) end += Character.charCount(text.codePointAt(end));
            out.add(text.substring(i, end));
            i = end;
        }
        return out;
    }
}
