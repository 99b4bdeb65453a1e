import java.math.BigInteger;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.SecureRandom;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.RSAPublicKeySpec;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;
import javax.crypto.spec.SecretKeySpec;

/**
 * Logs in, lists the banks with the bearer token, then again with an encrypted password (a JWE). JDK 17
 * alone: java.net.http and javax.crypto; the few JSON fields needed are read with regular expressions.
 */
public final class Banks {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64URL = Base64.getUrlEncoder().withoutPadding();

    public static void main(String[] args) {
        try {
            String base = env("GATEWAY_URL"), login = env("PARTNER_LOGIN"), password = env("PARTNER_PASSWORD");
            String banksUrl = base + "/partner/" + env("PROVIDER_SEGMENT") + "/sbp/banks/";

            String body = "{\"login\":" + quote(login) + ",\"password\":" + quote(password) + "}";
            String token = field(call("POST", base + "/api/v1/login/", body, null), "access_token");
            System.out.println("banks: " + countBanks(call("POST", banksUrl, null, token)));

            String jwks = call("GET", base + "/.well-known/jwks.json", null, null);
            String jwk = null;
            for (Matcher key = Pattern.compile("\\{[^{}]*\\}").matcher(jwks); key.find() && jwk == null; ) {
                if (key.group().matches(".*\"use\"\\s*:\\s*\"enc\".*") && key.group().contains("\"RSA-OAEP-256\"")) jwk = key.group();
            }
            if (jwk == null) throw new IllegalStateException("the JWKS has no RSA-OAEP-256 encryption key");
            String query = "?partnerName=" + URLEncoder.encode(login, StandardCharsets.UTF_8)
                + "&partnerPassword=" + encryptPassword(password, jwk) + "&useAuthByCert=Y";
            System.out.println("banks: " + countBanks(call("POST", banksUrl + query, null, null)));
        } catch (Exception error) {
            System.err.println(error.getMessage() != null ? error.getMessage() : error.toString());
            System.exit(1);
        }
    }

    static String encryptPassword(String password, String jwk) throws Exception {
        String header = "{\"alg\":\"RSA-OAEP-256\",\"enc\":\"A256GCM\",\"kid\":" + quote(field(jwk, "kid"))
            + ",\"iat\":" + System.currentTimeMillis() / 1000 + ",\"jti\":\"" + HexFormat.of().formatHex(random(16)) + "\"}";
        String encodedHeader = B64URL.encodeToString(header.getBytes(StandardCharsets.UTF_8));
        RSAPublicKey key = (RSAPublicKey) KeyFactory.getInstance("RSA").generatePublic(
            new RSAPublicKeySpec(unsigned(field(jwk, "n")), unsigned(field(jwk, "e"))));
        byte[] cek = random(32), iv = random(12);

        // Java's trap: "RSA/ECB/OAEPWithSHA-256AndMGF1Padding" alone uses SHA-1 for MGF1, which the gateway
        // cannot decrypt. RSA-OAEP-256 is SHA-256 for both, so the parameters are given explicitly.
        Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPPadding");
        rsa.init(Cipher.ENCRYPT_MODE, key, new OAEPParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT));
        byte[] encryptedKey = rsa.doFinal(cek);

        Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
        aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(cek, "AES"), new GCMParameterSpec(128, iv));
        aes.updateAAD(encodedHeader.getBytes(StandardCharsets.US_ASCII));
        byte[] sealed = aes.doFinal(password.getBytes(StandardCharsets.UTF_8)); // ciphertext, then the 16-byte tag
        return String.join(".", encodedHeader, B64URL.encodeToString(encryptedKey), B64URL.encodeToString(iv),
            B64URL.encodeToString(Arrays.copyOf(sealed, sealed.length - 16)),
            B64URL.encodeToString(Arrays.copyOfRange(sealed, sealed.length - 16, sealed.length)));
    }

    /** Sends the request and returns the body; any status but 200 becomes an error with description_status. */
    static String call(String method, String url, String json, String bearer) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
            .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) request.header("Content-Type", "application/json");
        if (bearer != null) request.header("Authorization", "Bearer " + bearer);
        HttpResponse<String> response;
        try {
            response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (java.io.IOException error) {
            throw new Exception(method + " " + url + ": " + error);
        }
        if (response.statusCode() != 200) {
            Matcher description = Pattern.compile("\"description_status\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(response.body());
            throw new Exception(method + " " + url + ": HTTP " + response.statusCode() + ": " + (description.find() ? description.group(1) : response.body()));
        }
        return response.body();
    }

    static String field(String json, String name) {
        Matcher value = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
        if (!value.find()) throw new IllegalStateException("no " + name + " in the answer");
        return value.group(1);
    }

    /** One "bic" member per bank (a quote inside a name is escaped, so it cannot start a member). */
    static long countBanks(String json) {
        return Pattern.compile("(?<!\\\\)\"bic\"\\s*:").matcher(json).results().count();
    }

    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        return out.append('"').toString();
    }

    static BigInteger unsigned(String base64url) {
        return new BigInteger(1, Base64.getUrlDecoder().decode(base64url));
    }

    static byte[] random(int length) {
        byte[] bytes = new byte[length];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    static String env(String name) {
        String value = System.getenv(name);
        if (value == null) throw new IllegalStateException("set " + name);
        return value;
    }
}
