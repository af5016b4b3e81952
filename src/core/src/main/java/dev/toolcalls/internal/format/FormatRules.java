package dev.toolcalls.internal.format;

import dev.toolcalls.internal.assemble.ArgumentWriter;
import dev.toolcalls.internal.assemble.ContentChannel;

import java.util.List;

/** The options of a format file that shape how events become a message. */
public record FormatRules(
        IdTemplate ids,
        ContentChannel.Policy content,
        boolean implicitCallEnd,
        IdNamePattern nameFromId,
        ArgumentWriter.Untyped untypedValues,
        boolean trimValueNewlines,
        int thinkingMode,
        boolean thinkingDefault,
        List<String> specialTokens,
        int lenientMode) {}
