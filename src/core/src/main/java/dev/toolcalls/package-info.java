/**
 * toolcalls: LLM output text to structured tool calls, in one piece and while streaming.
 *
 * <pre>{@code
 * Format format = Formats.get(name);                          // by name or alias; thread-safe
 * ChatMessage m = format.parse(text, Tools.parse(toolsJson));  // batch
 * StreamParser s = format.newStream(tools);                    // one per response
 * for (String chunk : chunks) for (DeltaMessage d : s.feed(chunk)) send(d.toJson());
 * for (DeltaMessage d : s.finish()) send(d.toJson());
 * }</pre>
 *
 * <p>Public API: {@link dev.toolcalls.Formats} (registry), {@link dev.toolcalls.Format}
 * ({@code parse}, {@code newStream}), {@link dev.toolcalls.StreamParser} ({@code feed},
 * {@code finish}), the values {@link dev.toolcalls.ChatMessage}, {@link dev.toolcalls.DeltaMessage},
 * {@link dev.toolcalls.ToolCall}, {@link dev.toolcalls.ToolCallDelta}, and
 * {@link dev.toolcalls.ParseOptions}, {@link dev.toolcalls.Tools}, {@link dev.toolcalls.IdGenerator},
 * {@link dev.toolcalls.ToolCallParseException}, {@link dev.toolcalls.FormatException},
 * {@link dev.toolcalls.FormatProvider}. Only plain Java types cross it: JSON goes in and out as
 * {@code String}s, lists and maps.
 *
 * <p>The runtime underneath is not exported; its packages read bottom-up:
 * <ol>
 * <li>{@code internal.json} – strict JSON validation, string decoding, wire JSON of the values;</li>
 * <li>{@code internal.lex} – a growable code-point stream, ANTLR's lexer simulator deciding
 *     final / cut now / hold back at the end of the data, a format's lexer with the role of every
 *     token, and the driver that re-lexes only the uncommitted tail;</li>
 * <li>{@code internal.format} – the format file read strictly and checked against its lexer;</li>
 * <li>{@code internal.assemble} – tokens to content, reasoning and OpenAI tool-call deltas;</li>
 * <li>{@code internal.grammar} – the generated lexers and the generated index of bundled formats;</li>
 * <li>{@link dev.toolcalls.StreamParser} – the pipeline and its error policy; batch parsing is the
 *     same pipeline fed once.</li>
 * </ol>
 */
package dev.toolcalls;
