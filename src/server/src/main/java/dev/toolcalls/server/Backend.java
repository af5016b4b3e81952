package dev.toolcalls.server;

import java.util.List;

/**
 * What answers the protocol endpoints behind {@link Routes}: the replay of recorded outputs, or the
 * gateway to an inference engine.
 */
interface Backend {
    /** Answers a protocol request whose whole body has arrived ({@code ex.protocol} is set). */
    void reply(Exchange ex, String body);

    /** The model names {@code GET /v1/models} lists. */
    List<String> models();

    /** The {@code owned_by} of the listed models. */
    String owner();

    /**
     * At the shutdown deadline: every stream still running goes on to its failure event now.
     *
     * @return how many streams were still running
     */
    int endStreams();
}
