package dev.toolcalls.templates.raw;

/**
 * How the conversation's messages reach the chat template where templates disagree about the OpenAI
 * request shape: by default an assistant message without text has content {@code null} and a tool
 * call's arguments are an object, as Hugging Face's chat templating passes them.
 *
 * @param emptyContent an assistant message without text has content {@code ""} instead of {@code
 *     null}, for templates that test the content with {@code in} or string methods (which fail on
 *     {@code null})
 * @param argumentsAsText a tool call's arguments are its JSON text instead of an object, for
 *     templates that concatenate them into the prompt as a string
 */
public record MessageShape(boolean emptyContent, boolean argumentsAsText) {
    /** Content {@code null} when there is no text, arguments as objects. */
    public static final MessageShape DEFAULT = new MessageShape(false, false);

    public MessageShape withEmptyContent(boolean emptyContent) {
        return new MessageShape(emptyContent, argumentsAsText);
    }

    public MessageShape withArgumentsAsText(boolean argumentsAsText) {
        return new MessageShape(emptyContent, argumentsAsText);
    }

    /** An assistant message's content as the template gets it. */
    public Object content(String text) {
        return text == null && emptyContent ? "" : text;
    }

    /** A tool call's arguments (JSON text) as the template gets them. */
    public Object arguments(String json) {
        return argumentsAsText ? json : JsonValues.parseObjectOr(json, json);
    }
}
