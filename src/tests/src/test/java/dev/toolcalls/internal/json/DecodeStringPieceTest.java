package dev.toolcalls.internal.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** The inside of a JSON string decoded: plain stretches copied whole, each escape decoded. */
class DecodeStringPieceTest {
    @Test
    void escapesBecomeTheirCharacters() {
        String plain = "no escape here";
        assertSame(plain, Json.decodeStringPiece(plain));
        assertEquals("a\nb\t\"q\"/\\", Json.decodeStringPiece("a\\nb\\t\\\"q\\\"\\/\\\\"));
        assertEquals("éx€", Json.decodeStringPiece("\\u00e9x\\u20AC"));
        assertEquals("\uFFFF", Json.decodeStringPiece("\\uFFFF"));
        assertEquals("\u000b\u0007", Json.decodeStringPiece("\\v\\a"));
    }

    @Test
    void brokenEscapesStayAsWritten() {
        assertEquals("x\\", Json.decodeStringPiece("x\\"));
        assertEquals("\\u12G4!", Json.decodeStringPiece("\\u12G4!"));
        assertEquals("\u0000", Json.decodeStringPiece("\\u00"));
    }
}
