package dev.toolcalls.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The gateway in front of an {@code https} engine: the engine's certificate is checked against the
 * JVM's trust store ({@code javax.net.ssl.trustStore}), its host name included. The certificates
 * are self-signed, made with the running JDK's {@code keytool} for each run. The trusted engine's
 * test runs first: the trust store it sets is restored after it, and the untrusted engine's test
 * after it meets the JVM's own again.
 */
@TestMethodOrder(MethodOrderer.MethodName.class)
class GatewayTlsTest {
    static final String PASSWORD = "stand-in";
    static final String[] TRUST_PROPERTIES = {
        "javax.net.ssl.trustStore",
        "javax.net.ssl.trustStorePassword",
        "javax.net.ssl.trustStoreType"
    };

    /** The engine's key and certificate for localhost and 127.0.0.1. */
    static Path engineKey;

    /** A key and certificate for another host name only. */
    static Path otherHostKey;

    /** A trust store holding both certificates. */
    static Path trustStore;

    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final Map<String, String> saved = new HashMap<>();
    StandInEngine engine;
    GatewayServer gateway;

    @BeforeAll
    static void certificates(@TempDir Path dir) throws Exception {
        engineKey = dir.resolve("engine.p12");
        otherHostKey = dir.resolve("other-host.p12");
        trustStore = dir.resolve("trust.p12");
        selfSigned(engineKey, "engine", "dns:localhost,ip:127.0.0.1");
        selfSigned(otherHostKey, "other", "dns:engine.invalid");
        for (String alias : new String[] {"engine", "other"}) {
            Path key = alias.equals("engine") ? engineKey : otherHostKey;
            Path cer = dir.resolve(alias + ".cer");
            keytool(
                    "-exportcert",
                    "-alias",
                    alias,
                    "-keystore",
                    key.toString(),
                    "-storepass",
                    PASSWORD,
                    "-file",
                    cer.toString());
            keytool(
                    "-importcert",
                    "-noprompt",
                    "-alias",
                    alias,
                    "-file",
                    cer.toString(),
                    "-keystore",
                    trustStore.toString(),
                    "-storetype",
                    "PKCS12",
                    "-storepass",
                    PASSWORD);
        }
    }

    static void selfSigned(Path keystore, String alias, String san) throws Exception {
        keytool(
                "-genkeypair",
                "-alias",
                alias,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=" + alias,
                "-ext",
                "san=" + san,
                "-validity",
                "2",
                "-keystore",
                keystore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD);
    }

    static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "keytool ran past a minute");
        assertEquals(0, p.exitValue(), "keytool " + String.join(" ", args) + ": " + out);
    }

    /** A server context presenting the key store's key and certificate. */
    static SSLContext serverContext(Path keystore) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            ks.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory kmf =
                KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, PASSWORD.toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        return tls;
    }

    /** The JVM's trust store is the test's (read when the gateway's TLS layer starts). */
    void trustTheTestCertificates() {
        for (String k : TRUST_PROPERTIES) saved.put(k, System.getProperty(k));
        System.setProperty("javax.net.ssl.trustStore", trustStore.toString());
        System.setProperty("javax.net.ssl.trustStorePassword", PASSWORD);
        System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
    }

    @AfterEach
    void stop() {
        if (gateway != null) gateway.close();
        if (engine != null) engine.close();
        saved.forEach(
                (k, v) -> {
                    if (v == null) System.clearProperty(k);
                    else System.setProperty(k, v);
                });
    }

    void start(Path key) throws Exception {
        engine = new StandInEngine(serverContext(key));
        assertTrue(engine.baseUrl().startsWith("https://"), engine.baseUrl());
        gateway =
                GatewayReliabilityTest.hermesGateway(
                        engine.baseUrl(),
                        Upstream.Kind.OPENAI,
                        ReplayServer.Limits.defaults(),
                        GatewayServer.Options.defaults());
        gateway.start();
    }

    HttpResponse<String> post(String path, String body) throws Exception {
        return GatewayReliabilityTest.post(http, gateway, path, body);
    }

    @Test
    void aStreamFromAnHttpsEngineTheJvmTrustsEqualsItsBatchAnswer() throws Exception {
        trustTheTestCertificates();
        start(engineKey);
        List<GatewayReliabilityTest.Recorded> outputs = new ArrayList<>();
        for (GatewayReliabilityTest.Recorded r : GatewayReliabilityTest.recorded())
            if (r.format().equals("hermes") && outputs.size() < 8) outputs.add(r);
        assertTrue(outputs.size() >= 4, "outputs: " + outputs.size());
        engine.script = r -> GatewayReliabilityTest.promptedOutput(outputs, r);
        boolean calls = false;
        for (int i = 0; i < outputs.size(); i++) {
            HttpResponse<String> batch =
                    post("/v1/chat/completions", GatewayReliabilityTest.request(outputs, i, false));
            assertEquals(200, batch.statusCode(), batch.body());
            HttpResponse<String> stream =
                    post("/v1/chat/completions", GatewayReliabilityTest.request(outputs, i, true));
            assertEquals(200, stream.statusCode(), stream.body());
            String message = GatewayReliabilityTest.batch(batch.body());
            calls |= message.contains(" | ");
            assertEquals(
                    message,
                    GatewayReliabilityTest.accumulate(stream.body()),
                    outputs.get(i).text());
        }
        assertTrue(calls, "some outputs have tool calls");
        assertEquals(2 * outputs.size(), engine.completedOnce(2 * outputs.size()));
    }

    /** The 502's message, checking its OpenAI shape: upstream_error, no stack trace. */
    static String upstreamError(HttpResponse<String> r) {
        assertEquals(502, r.statusCode(), r.body());
        JsonObject e = JsonParser.parseString(r.body()).getAsJsonObject().getAsJsonObject("error");
        assertEquals("upstream_error", e.get("code").getAsString(), r.body());
        String message = e.get("message").getAsString();
        assertFalse(message.contains("\tat ") || message.contains("\n"), r.body());
        assertFalse(r.body().contains("Exception"), r.body());
        return message;
    }

    @Test
    void anHttpsEngineWhoseCertificateIsNotTrustedIsA502NamingTheTlsFailure() throws Exception {
        start(engineKey); // the JVM's own trust store: the self-signed certificate is not in it
        for (boolean stream : new boolean[] {false, true}) {
            String message =
                    upstreamError(
                            post(
                                    "/v1/chat/completions",
                                    GatewayReliabilityTest.body(
                                            "/v1/chat/completions", stream, "")));
            assertTrue(message.contains(engine.baseUrl()), message);
            assertTrue(message.contains("the TLS handshake failed"), message);
            assertTrue(message.contains("certification path"), message);
        }
        // each on a new connection, whose failed handshake the gateway must tell from a bare close
        for (int round = 0; round < 3; round++)
            for (String path : new String[] {"/v1/responses", "/v1/messages"})
                for (boolean stream : new boolean[] {false, true}) {
                    HttpResponse<String> r =
                            post(path, GatewayReliabilityTest.body(path, stream, ""));
                    assertEquals(502, r.statusCode(), r.body());
                    assertTrue(r.body().contains("the TLS handshake failed"), r.body());
                    assertTrue(r.body().contains("certification path"), r.body());
                }
        assertEquals(0, engine.requests.size(), "no request reached the engine");
    }

    @Test
    void anHttpsEngineWithATrustedCertificateForAnotherHostIsA502() throws Exception {
        trustTheTestCertificates();
        start(otherHostKey);
        String message =
                upstreamError(
                        post(
                                "/v1/chat/completions",
                                GatewayReliabilityTest.body("/v1/chat/completions", false, "")));
        assertTrue(message.contains("the TLS handshake failed"), message);
        assertTrue(
                message.contains("subject alternative names matching IP address 127.0.0.1"),
                message);
        assertEquals(0, engine.requests.size(), "no request reached the engine");
    }
}
