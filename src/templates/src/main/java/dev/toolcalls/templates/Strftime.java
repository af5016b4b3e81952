package dev.toolcalls.templates;

import java.time.LocalDateTime;
import java.time.format.TextStyle;
import java.util.Locale;

/** strftime_now's directives as Hugging Face's Jinja knows them: %Y %m %d %b %B %H %M %%. */
final class Strftime {
    private Strftime() {}

    static String format(LocalDateTime t, String format) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%' || i + 1 >= format.length()) {
                b.append(c);
                continue;
            }
            char d = format.charAt(i + 1);
            String s =
                    switch (d) {
                        case 'Y' -> Integer.toString(t.getYear());
                        case 'm' -> pad2(t.getMonthValue());
                        case 'd' -> pad2(t.getDayOfMonth());
                        case 'b' -> t.getMonth().getDisplayName(TextStyle.SHORT, Locale.US);
                        case 'B' -> t.getMonth().getDisplayName(TextStyle.FULL, Locale.US);
                        case 'H' -> pad2(t.getHour());
                        case 'M' -> pad2(t.getMinute());
                        case '%' -> "%";
                        default -> null;
                    };
            if (s == null) {
                b.append(c);
            } else {
                b.append(s);
                i++;
            }
        }
        return b.toString();
    }

    private static String pad2(int n) {
        return n < 10 ? "0" + n : Integer.toString(n);
    }
}
