<?php
// Logs in, lists the banks with the bearer token, then again with an encrypted password (a JWE).
//
// PHP's trap: openssl_public_encrypt() with OPENSSL_PKCS1_OAEP_PADDING is RSA-OAEP with SHA-1 only, and
// there is no option for SHA-256: the gateway cannot decrypt it. phpseclib3 does RSA-OAEP-256 (SHA-256 for
// the digest and for MGF1); AES-256-GCM is in ext-openssl.
declare(strict_types=1);

// Debian's php-phpseclib3 (on the include path); with Composer, its vendor/autoload.php.
require file_exists(__DIR__ . '/vendor/autoload.php') ? __DIR__ . '/vendor/autoload.php' : 'phpseclib3/autoload.php';

use phpseclib3\Crypt\PublicKeyLoader;
use phpseclib3\Crypt\RSA;

function fail(string $message): never
{
    fwrite(STDERR, $message . "\n");
    exit(1);
}

function b64url(string $bytes): string
{
    return rtrim(strtr(base64_encode($bytes), '+/', '-_'), '=');
}

/** Returns the decoded JSON answer; on any failure, exits with the gateway's description_status. */
function call(string $method, string $url, ?array $body = null, array $headers = []): array
{
    if ($body !== null) $headers[] = 'Content-Type: application/json';
    $context = stream_context_create(['http' => [
        'method' => $method, 'header' => $headers, 'content' => $body === null ? '' : json_encode($body),
        'ignore_errors' => true, 'timeout' => 30,
    ]]);
    $text = @file_get_contents($url, false, $context);
    if ($text === false) fail("$method $url: " . (error_get_last()['message'] ?? 'no answer'));
    $status = (int) explode(' ', $http_response_header[0] ?? '')[1];
    $json = json_decode($text, true);
    if ($status !== 200) fail("$method $url: HTTP $status: " . ($json['description_status'] ?? $text));
    if (!is_array($json)) fail("$method $url: not JSON");
    return $json;
}

function encryptPassword(string $password, array $jwk): string
{
    $header = ['alg' => 'RSA-OAEP-256', 'enc' => 'A256GCM', 'kid' => $jwk['kid'], 'iat' => time(), 'jti' => bin2hex(random_bytes(16))];
    $protected = b64url(json_encode($header));
    $rsa = PublicKeyLoader::load(json_encode($jwk))->withPadding(RSA::ENCRYPTION_OAEP)->withHash('sha256')->withMGFHash('sha256');
    $cek = random_bytes(32);
    $iv = random_bytes(12);
    $ciphertext = openssl_encrypt($password, 'aes-256-gcm', $cek, OPENSSL_RAW_DATA, $iv, $tag, $protected, 16);
    if ($ciphertext === false) fail('AES-256-GCM is not available');
    return implode('.', [$protected, b64url($rsa->encrypt($cek)), b64url($iv), b64url($ciphertext), b64url($tag)]);
}

foreach (['GATEWAY_URL', 'PROVIDER_SEGMENT', 'PARTNER_LOGIN', 'PARTNER_PASSWORD'] as $name) {
    if (getenv($name) === false) fail("set $name");
}
[$base, $login, $password] = [getenv('GATEWAY_URL'), getenv('PARTNER_LOGIN'), getenv('PARTNER_PASSWORD')];
$banksUrl = "$base/partner/" . getenv('PROVIDER_SEGMENT') . '/sbp/banks/';

$token = call('POST', "$base/api/v1/login/", ['login' => $login, 'password' => $password])['access_token'];
echo 'banks: ', count(call('POST', $banksUrl, null, ["Authorization: Bearer $token"])['banks']), "\n";

$keys = call('GET', "$base/.well-known/jwks.json")['keys'];
$jwk = current(array_filter($keys, fn ($key) => ($key['use'] ?? '') === 'enc' && ($key['alg'] ?? '') === 'RSA-OAEP-256'));
if ($jwk === false) fail('the JWKS has no RSA-OAEP-256 encryption key');
$query = http_build_query(['partnerName' => $login, 'partnerPassword' => encryptPassword($password, $jwk), 'useAuthByCert' => 'Y']);
echo 'banks: ', count(call('POST', "$banksUrl?$query")['banks']), "\n";
