package dev.toolcalls.internal.lex;

/**
 * Something wrong with a format: about a token rule, a mode or the format file, what is wrong and
 * how to fix it. Loading a format fails on any; {@code toolcalls check} prints each with the place
 * it is written ({@code file:line:column}).
 *
 * @param subject what the problem is about
 * @param name the token rule or mode it is about, or the token of a role entry (null for the format
 *     file as a whole)
 * @param what what is wrong, naming the token or mode
 * @param fix how to fix it (null when obvious)
 */
public record Problem(Subject subject, String name, String what, String fix) {
    /**
     * {@code ROLE}: an entry of a format or role file's {@code "roles"}, written where that entry
     * is.
     */
    public enum Subject {
        TOKEN,
        MODE,
        ROLE,
        FORMAT_FILE
    }

    public static Problem token(String name, String what, String fix) {
        return new Problem(Subject.TOKEN, name, what, fix);
    }

    public static Problem mode(String name, String what, String fix) {
        return new Problem(Subject.MODE, name, what, fix);
    }

    public static Problem role(String token, String what, String fix) {
        return new Problem(Subject.ROLE, token, what, fix);
    }

    public static Problem file(String what, String fix) {
        return new Problem(Subject.FORMAT_FILE, null, what, fix);
    }

    /** What is wrong and, in parentheses, the fix: the form load errors take. */
    public String text() {
        return fix == null ? what : what + " (" + fix + ")";
    }
}
