/**
 * The raw side of a chat model: a source of raw text for a rendered prompt ({@link
 * dev.toolcalls.templates.raw.RawTextSource}), a ready one over an OpenAI-compatible {@code
 * /v1/completions} endpoint ({@link dev.toolcalls.templates.raw.CompletionsSource}), and how the
 * conversation's messages are shaped for a template ({@link
 * dev.toolcalls.templates.raw.MessageShape}). Shared by the LangChain4j and Spring AI adapters.
 */
package dev.toolcalls.templates.raw;
