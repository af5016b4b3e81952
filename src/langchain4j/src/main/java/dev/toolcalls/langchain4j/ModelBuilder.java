package dev.toolcalls.langchain4j;

import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.toolcalls.Format;
import dev.toolcalls.Formats;
import dev.toolcalls.ParseOptions;
import dev.toolcalls.templates.ChatTemplate;
import dev.toolcalls.templates.raw.CompletionsSource;
import dev.toolcalls.templates.raw.MessageShape;
import dev.toolcalls.templates.raw.RawTextSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings {@link ToolCallsChatModel} and {@link ToolCallsStreamingChatModel} share: where the
 * output comes from, the chat template that renders the prompt, and the format that parses the
 * output. Source, template and format are required.
 *
 * @param <B> the concrete builder
 */
public abstract class ModelBuilder<B extends ModelBuilder<B>> {
    RawTextSource source;
    ChatTemplate template;
    Format format;
    ParseOptions parseOptions = ParseOptions.defaults();
    final Map<String, Object> templateKwargs = new LinkedHashMap<>();
    MessageShape messageShape = MessageShape.DEFAULT;
    String modelName;
    ChatRequestParameters defaultRequestParameters;
    final List<ChatModelListener> listeners = new ArrayList<>();

    ModelBuilder() {}

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /** Where the raw output comes from, e.g. a {@link CompletionsSource}. */
    public B source(RawTextSource source) {
        this.source = source;
        return self();
    }

    /** The model's chat template, which renders messages, tools and tool results into a prompt. */
    public B chatTemplate(ChatTemplate template) {
        this.template = template;
        return self();
    }

    /**
     * The chat template from a file: a {@code tokenizer_config.json} (its {@code chat_template} and
     * special tokens) or a {@code .jinja} file.
     *
     * @throws UncheckedIOException when the file cannot be read
     */
    public B chatTemplate(Path file) {
        try {
            this.template = ChatTemplate.load(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the chat template " + file, e);
        }
        return self();
    }

    /** The format the model writes tool calls in. */
    public B format(Format format) {
        this.format = format;
        return self();
    }

    /** The format by name or alias ({@link Formats#get}). */
    public B format(String name) {
        this.format = Formats.get(name);
        return self();
    }

    /** Parser options (lenient recovery, thinking, ids, limits); strict defaults otherwise. */
    public B parseOptions(ParseOptions options) {
        this.parseOptions = options;
        return self();
    }

    /**
     * A variable for the chat template, as {@code chat_template_kwargs} gives it (e.g. {@code
     * enable_thinking}, {@code reasoning_effort}).
     */
    public B templateKwarg(String name, Object value) {
        this.templateKwargs.put(name, value);
        return self();
    }

    /**
     * How messages reach the template where templates disagree about the request shape (content
     * {@code ""} or {@code null}, arguments as object or text); {@link MessageShape#DEFAULT}
     * otherwise.
     */
    public B messageShape(MessageShape shape) {
        this.messageShape = shape;
        return self();
    }

    /** The model name reported in responses and sent to the source unless a request names one. */
    public B modelName(String modelName) {
        this.modelName = modelName;
        return self();
    }

    /** Parameters every request starts from (temperature, max tokens, tools...). */
    public B defaultRequestParameters(ChatRequestParameters parameters) {
        this.defaultRequestParameters = parameters;
        return self();
    }

    /** Listeners told of each request, response and error. */
    public B listeners(List<ChatModelListener> listeners) {
        this.listeners.clear();
        if (listeners != null) this.listeners.addAll(listeners);
        return self();
    }

    Setup setup() {
        return new Setup(this);
    }
}
