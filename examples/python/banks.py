"""Logs in, lists the banks with the bearer token, then again with an encrypted password (a JWE).

Python's trap: JOSE libraries guard the JWE header. joserfc refuses the `iat` and `jti` fields the gateway
requires unless the algorithm is named and strict_check_header=False is passed. This example needs no JOSE
library: it builds the compact JWE from `cryptography` primitives, where the traps are that
AESGCM.encrypt returns the ciphertext with the 16-byte tag appended, and the additional data is the
base64url-encoded header text, not the JSON.
"""
import base64, json, os, secrets, sys, time, urllib.error, urllib.parse, urllib.request
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.ciphers.aead import AESGCM


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_int(text: str) -> int:
    return int.from_bytes(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)), "big")


def call(method, url, body=None, headers=None):
    """Returns the JSON answer; on any failure, exits with the gateway's description_status."""
    request = urllib.request.Request(url, method=method, headers=headers or {},
                                     data=None if body is None else json.dumps(body).encode())
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        try:
            description = json.load(error).get("description_status")
        except ValueError:
            description = None
        sys.exit(f"{method} {url}: HTTP {error.code}: {description or error.reason}")
    except (urllib.error.URLError, OSError, ValueError) as error:
        sys.exit(f"{method} {url}: {error}")


def encrypt_password(password: str, jwk: dict) -> str:
    header = {"alg": "RSA-OAEP-256", "enc": "A256GCM", "kid": jwk["kid"], "iat": int(time.time()), "jti": secrets.token_hex(16)}
    protected = b64url(json.dumps(header).encode())
    key = rsa.RSAPublicNumbers(b64url_int(jwk["e"]), b64url_int(jwk["n"])).public_key()
    cek, iv = secrets.token_bytes(32), secrets.token_bytes(12)
    # RSA-OAEP-256 is SHA-256 for both the digest and MGF1.
    encrypted_key = key.encrypt(cek, padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None))
    sealed = AESGCM(cek).encrypt(iv, password.encode(), protected.encode())
    return ".".join([protected, b64url(encrypted_key), b64url(iv), b64url(sealed[:-16]), b64url(sealed[-16:])])


def main():
    try:
        base, provider, login, password = (os.environ[name] for name in ("GATEWAY_URL", "PROVIDER_SEGMENT", "PARTNER_LOGIN", "PARTNER_PASSWORD"))
    except KeyError as missing:
        sys.exit(f"set {missing.args[0]}")
    banks_url = f"{base}/partner/{provider}/sbp/banks/"

    token = call("POST", f"{base}/api/v1/login/", {"login": login, "password": password}, {"Content-Type": "application/json"})["access_token"]
    print("banks:", len(call("POST", banks_url, headers={"Authorization": f"Bearer {token}"})["banks"]))

    keys = call("GET", f"{base}/.well-known/jwks.json")["keys"]
    jwk = next((k for k in keys if k.get("use") == "enc" and k.get("alg") == "RSA-OAEP-256"), None)
    if jwk is None:
        sys.exit("the JWKS has no RSA-OAEP-256 encryption key")
    query = urllib.parse.urlencode({"partnerName": login, "partnerPassword": encrypt_password(password, jwk), "useAuthByCert": "Y"})
    print("banks:", len(call("POST", f"{banks_url}?{query}")["banks"]))


if __name__ == "__main__":
    main()
