package dev.toolcalls.internal.assemble;

import java.util.ArrayList;
import java.util.List;

import dev.toolcalls.DeltaMessage;
import dev.toolcalls.ToolCallDelta;

/**
 * Collects the deltas of one feed, merging consecutive pieces of the same kind: content after
 * content, reasoning after reasoning, argument fragments of the same call after each other.
 */
public final class DeltaCollector {
    private enum Kind { NONE, CONTENT, REASONING, TOOL }

    private final List<DeltaMessage> done = new ArrayList<>();
    private Kind kind = Kind.NONE;
    private final StringBuilder text = new StringBuilder();
    private int toolIndex;
    private String toolId, toolName;

    public void content(String piece) { text(Kind.CONTENT, piece); }

    public void reasoning(String piece) { text(Kind.REASONING, piece); }

    private void text(Kind k, String piece) {
        if (piece.isEmpty()) return;
        if (kind != k) { flush(); kind = k; }
        text.append(piece);
    }

    /** A call's first delta: id, type and the complete name. */
    public void header(int index, String id, String name) {
        flush();
        kind = Kind.TOOL;
        toolIndex = index;
        toolId = id;
        toolName = name;
    }

    public void arguments(int index, String fragment) {
        if (fragment.isEmpty()) return;
        if (kind != Kind.TOOL || toolIndex != index) {
            flush();
            kind = Kind.TOOL;
            toolIndex = index;
        }
        text.append(fragment);
    }

    public List<DeltaMessage> drain() {
        flush();
        if (done.isEmpty()) return List.of();
        List<DeltaMessage> out = List.copyOf(done);
        done.clear();
        return out;
    }

    private void flush() {
        switch (kind) {
            case CONTENT: done.add(new DeltaMessage(text.toString(), null, null)); break;
            case REASONING: done.add(new DeltaMessage(null, text.toString(), null)); break;
            case TOOL: done.add(new DeltaMessage(null, null, new ToolCallDelta(toolIndex, toolId, toolName, text.toString()))); break;
            default: break;
        }
        kind = Kind.NONE;
        text.setLength(0);
        toolId = null;
        toolName = null;
    }
}
