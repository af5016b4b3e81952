package dev.toolcalls.protocol;

/**
 * Text that is only whitespace opens no item or block in the Responses and Messages protocols
 * (Anthropic rejects whitespace-only text blocks sent back to it): it waits until a character that
 * is not whitespace joins it, and is dropped when a call or the end comes first.
 */
final class HeldWhitespace {
    private final StringBuilder held = new StringBuilder();

    /** The text to send now (the held whitespace included), or null while it is all whitespace. */
    String take(String text) {
        if (!text.isBlank()) {
            if (held.length() == 0) return text;
            String out = held.append(text).toString();
            held.setLength(0);
            return out;
        }
        held.append(text);
        return null;
    }

    void drop() {
        held.setLength(0);
    }
}
