/**
 * toolcalls: LLM output text to structured tool calls, in one piece and while streaming.
 *
 * <pre>{@code
 * Format format = Formats.get(name);                            // by name or alias; thread-safe
 * Tools tools = Tools.parse(toolsJson);                         // the request's tools (OpenAI JSON)
 * ChatMessage m = format.parse(text, tools);                    // batch
 * StreamParser parser = format.newStream(tools);                // one per response
 * for (String chunk : chunks) for (ParseEvent e : parser.feed(chunk)) send(e);
 * for (ParseEvent e : parser.finish()) send(e);
 * }</pre>
 *
 * <p>Public API: {@link dev.toolcalls.Formats} and {@link dev.toolcalls.FormatRegistry} (the
 * registry), {@link dev.toolcalls.Format} ({@code parse}, {@code parseEvents}, {@code newStream}),
 * {@link dev.toolcalls.StreamParser} ({@code feed}, {@code feedSpecial}, {@code finish}), the
 * events {@link dev.toolcalls.ParseEvent}, the values {@link dev.toolcalls.ChatMessage}, {@link
 * dev.toolcalls.ToolCall}, {@link dev.toolcalls.DeltaMessage} (a view of events as Chat Completions
 * deltas) and {@link dev.toolcalls.ToolCallDelta}, and {@link dev.toolcalls.ParseOptions}, {@link
 * dev.toolcalls.Tools}, {@link dev.toolcalls.IdGenerator}, {@link
 * dev.toolcalls.ToolCallParseException}, {@link dev.toolcalls.FormatException}, {@link
 * dev.toolcalls.FormatProvider}. Only Java types cross it: JSON goes in and out as {@code String}s,
 * lists and maps; no ANTLR or Gson type appears. The wire protocols (Chat Completions, Responses,
 * Anthropic Messages) and the values' JSON are in {@link dev.toolcalls.protocol}.
 *
 * <p>The runtime underneath is not exported (only to the project's tools, server and command line);
 * its packages read bottom-up:
 *
 * <ol>
 *   <li>{@code internal.json} – strict JSON validation and string decoding;
 *   <li>{@code internal.lex} – a growable text stream read in place, ANTLR's lexer simulator
 *       deciding final / cut now / hold back at the end of the data, runs found by search, a
 *       format's lexer with the role of every token, and the driver that re-lexes only the
 *       uncommitted tail;
 *   <li>{@code internal.format} – the format file read strictly and checked against its lexer, the
 *       bundled formats and folders read at run time;
 *   <li>{@code internal.assemble} – tokens to content, reasoning and tool-call events;
 *   <li>{@code internal.grammar} – the generated lexers and the generated index of bundled formats;
 *   <li>{@link dev.toolcalls.StreamParser} – the pipeline and its error policy; batch parsing is
 *       the same pipeline fed once.
 * </ol>
 */
package dev.toolcalls;
