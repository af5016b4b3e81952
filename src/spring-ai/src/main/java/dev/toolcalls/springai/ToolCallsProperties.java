package dev.toolcalls.springai;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code spring.ai.toolcalls.*} properties: where the raw completions come from, the chat
 * template that renders prompts, and the format that parses the output.
 *
 * <pre>
 * spring.ai.toolcalls.base-url=http://localhost:8000/v1
 * spring.ai.toolcalls.model=Qwen/Qwen3-Coder-30B-A3B-Instruct
 * spring.ai.toolcalls.chat-template=/models/qwen3-coder/tokenizer_config.json
 * spring.ai.toolcalls.format=qwen3_coder
 * </pre>
 */
@ConfigurationProperties(prefix = ToolCallsProperties.PREFIX)
public class ToolCallsProperties {
    public static final String PREFIX = "spring.ai.toolcalls";

    /** The completions API base, e.g. http://localhost:8000/v1 ("/completions" is appended). */
    private String baseUrl;

    /** Sent as "Authorization: Bearer KEY". */
    private String apiKey;

    /** The model field of each request. */
    private String model;

    /** The longest a whole completion may take. */
    private Duration timeout;

    /** The chat template: a tokenizer_config.json or a .jinja file. */
    private Path chatTemplate;

    /** The format the model writes tool calls in (a name or alias). */
    private String format;

    /** Recover malformed calls as text where nothing of them was streamed yet. */
    private boolean lenient;

    /** Whether the request has thinking on (null: the format's default). */
    private Boolean thinking;

    /** Variables for the chat template, as chat_template_kwargs gives them. */
    private Map<String, String> templateKwargs = new LinkedHashMap<>();

    /** An assistant message without text reaches the template with content "" instead of null. */
    private boolean emptyContent;

    /** Tool-call arguments reach the template as JSON text instead of an object. */
    private boolean argumentsAsText;

    /** Sampling temperature (null: the engine's default). */
    private Double temperature;

    /** The most tokens to generate (null: the engine's default). */
    private Integer maxTokens;

    public String getBaseUrl() {
        return baseUrl;
    }

    public void setBaseUrl(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    public String getApiKey() {
        return apiKey;
    }

    public void setApiKey(String apiKey) {
        this.apiKey = apiKey;
    }

    public String getModel() {
        return model;
    }

    public void setModel(String model) {
        this.model = model;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    public Path getChatTemplate() {
        return chatTemplate;
    }

    public void setChatTemplate(Path chatTemplate) {
        this.chatTemplate = chatTemplate;
    }

    public String getFormat() {
        return format;
    }

    public void setFormat(String format) {
        this.format = format;
    }

    public boolean isLenient() {
        return lenient;
    }

    public void setLenient(boolean lenient) {
        this.lenient = lenient;
    }

    public Boolean getThinking() {
        return thinking;
    }

    public void setThinking(Boolean thinking) {
        this.thinking = thinking;
    }

    public Map<String, String> getTemplateKwargs() {
        return templateKwargs;
    }

    public void setTemplateKwargs(Map<String, String> templateKwargs) {
        this.templateKwargs = templateKwargs;
    }

    public boolean isEmptyContent() {
        return emptyContent;
    }

    public void setEmptyContent(boolean emptyContent) {
        this.emptyContent = emptyContent;
    }

    public boolean isArgumentsAsText() {
        return argumentsAsText;
    }

    public void setArgumentsAsText(boolean argumentsAsText) {
        this.argumentsAsText = argumentsAsText;
    }

    public Double getTemperature() {
        return temperature;
    }

    public void setTemperature(Double temperature) {
        this.temperature = temperature;
    }

    public Integer getMaxTokens() {
        return maxTokens;
    }

    public void setMaxTokens(Integer maxTokens) {
        this.maxTokens = maxTokens;
    }
}
