"""The partner guide's Authlib traps, shown against a listening gateway with Debian's python3-authlib.

Settings from the environment: GATEWAY_URL (the gateway's PUBLIC_URL), PARTNER_LOGIN, PARTNER_KEY_FILE (the
partner's private EC key as a JWK with its kid) and PROVIDER_SEGMENT. Prints one JSON object:
- default_alg_error: what PrivateKeyJWT without alg raises for an EC key (it signs RS256 by default);
- default_aud_status, default_aud_description: the token endpoint's answer to an assertion whose aud Authlib
  left at its default, the token endpoint URL (the gateway takes only its issuer identifier);
- encode_typ: the typ jwt.encode wrote into a header given typ dpop+jwt, and encode_status, the token
  endpoint's answer to a DPoP proof made that way;
- serialized_typ, token_type, banks: with the proof signed by JsonWebSignature.serialize_compact, the token's
  type and the banks the DPoP-bound token lists.
"""
import base64
import hashlib
import json
import os
import sys
import time
import uuid

import requests
from authlib.jose import JsonWebKey, JsonWebSignature, jwt
from authlib.oauth2.rfc7523 import PrivateKeyJWT


def header_of(compact):
    text = compact.decode() if isinstance(compact, bytes) else compact
    part = text.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def main():
    base = os.environ["GATEWAY_URL"]
    login = os.environ["PARTNER_LOGIN"]
    with open(os.environ["PARTNER_KEY_FILE"], encoding="utf-8") as file:
        private_jwk = json.load(file)
    metadata = requests.get(base + "/.well-known/oauth-authorization-server", timeout=10).json()
    token_endpoint = metadata["token_endpoint"]
    banks_url = "%s/partner/%s/sbp/banks/" % (base, os.environ["PROVIDER_SEGMENT"])
    result = {}

    class Client:
        client_id = login
        client_secret = private_jwk

    # Trap 1: RS256 unless told otherwise.
    try:
        PrivateKeyJWT(token_endpoint, claims={"exp": int(time.time()) + 60}).sign(Client, token_endpoint)
        result["default_alg_error"] = None
    except ValueError as error:
        result["default_alg_error"] = str(error)

    dpop_key = JsonWebKey.generate_key("EC", "P-256", is_private=True)
    public = {name: dpop_key.as_dict()[name] for name in ("kty", "crv", "x", "y")}
    proof_header = {"typ": "dpop+jwt", "alg": "ES256", "jwk": public}

    def claims(url, token=None):
        body = {"htm": "POST", "htu": url, "iat": int(time.time()), "jti": str(uuid.uuid4())}
        if token:
            body["ath"] = base64.urlsafe_b64encode(hashlib.sha256(token.encode()).digest()).rstrip(b"=").decode()
        return body

    def token_request(proof, claims_of_assertion=None):
        # The assertion as PrivateKeyJWT signs it, once told the key's algorithm and the gateway's audience.
        extra = {"aud": metadata["issuer"], "exp": int(time.time()) + 60} if claims_of_assertion is None else claims_of_assertion
        assertion = PrivateKeyJWT(token_endpoint, claims=extra, alg="ES256").sign(Client, token_endpoint)
        return requests.post(
            token_endpoint,
            data={
                "grant_type": "client_credentials",
                "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
                "client_assertion": assertion.decode() if isinstance(assertion, bytes) else assertion,
            },
            headers={"DPoP": proof.decode() if isinstance(proof, bytes) else proof} if proof else {},
            timeout=10,
        )

    # Trap 2: aud is the token endpoint unless told otherwise.
    default_aud = token_request(None, {"exp": int(time.time()) + 60})
    result["default_aud_status"] = default_aud.status_code
    result["default_aud_description"] = default_aud.json().get("error_description")

    # Trap 3: jwt.encode rewrites typ.
    encoded = jwt.encode(dict(proof_header), claims(token_endpoint), dpop_key)
    result["encode_typ"] = header_of(encoded)["typ"]
    refused = token_request(encoded)
    result["encode_status"] = refused.status_code

    # The way round it: JsonWebSignature keeps the header it is given.
    signer = JsonWebSignature()
    serialized = signer.serialize_compact(proof_header, json.dumps(claims(token_endpoint)).encode(), dpop_key)
    result["serialized_typ"] = header_of(serialized)["typ"]
    accepted = token_request(serialized)
    if accepted.status_code != 200:
        print("token request refused: %d %s" % (accepted.status_code, accepted.text), file=sys.stderr)
        return 1
    token = accepted.json()
    result["token_type"] = token["token_type"]
    proof = signer.serialize_compact(proof_header, json.dumps(claims(banks_url, token["access_token"])).encode(), dpop_key)
    banks = requests.post(banks_url, headers={"Authorization": "DPoP " + token["access_token"], "DPoP": proof.decode()}, timeout=10)
    if banks.status_code != 200:
        print("banks refused: %d %s" % (banks.status_code, banks.text), file=sys.stderr)
        return 1
    result["banks"] = len(banks.json()["banks"])
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
