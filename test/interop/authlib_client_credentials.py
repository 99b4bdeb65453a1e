"""Client credentials with private_key_jwt through Authlib (Debian's python3-authlib), then the banks call.

Settings from the environment: GATEWAY_URL (the gateway's PUBLIC_URL), PARTNER_LOGIN, PARTNER_KEY_FILE (the
partner's private key as a JWK with its kid, which Authlib puts in the assertion's header) and PROVIDER_SEGMENT.
Prints one JSON line: the token type, its lifetime and the number of banks. Exits 1 with the gateway's answer
on a refusal.
"""
import json
import os
import sys
import time

import requests
from authlib.integrations.requests_client import OAuth2Session
from authlib.oauth2.rfc7523 import PrivateKeyJWT


def main():
    base = os.environ["GATEWAY_URL"]
    login = os.environ["PARTNER_LOGIN"]
    with open(os.environ["PARTNER_KEY_FILE"], encoding="utf-8") as file:
        private_jwk = json.load(file)
    metadata = requests.get(base + "/.well-known/oauth-authorization-server", timeout=10).json()
    token_endpoint = metadata["token_endpoint"]
    # Authlib's assertions live an hour by default; the gateway takes at most five minutes, so exp is set here.
    # Their aud is the token endpoint by default; the gateway takes only its issuer identifier (FAPI 2.0), so
    # aud is set here too (claims override what Authlib writes).
    auth_method = PrivateKeyJWT(token_endpoint, claims={"aud": metadata["issuer"], "exp": int(time.time()) + 60}, alg=private_jwk["alg"])
    session = OAuth2Session(login, private_jwk, token_endpoint_auth_method=auth_method)
    try:
        token = session.fetch_token(token_endpoint, grant_type="client_credentials")
    except Exception as error:  # Authlib raises OAuthError with the gateway's error and description
        print("token request refused: %s" % error, file=sys.stderr)
        return 1
    response = session.post("%s/partner/%s/sbp/banks/" % (base, os.environ["PROVIDER_SEGMENT"]), timeout=10)
    if response.status_code != 200:
        print("banks refused: %d %s" % (response.status_code, response.text), file=sys.stderr)
        return 1
    print(json.dumps({"token_type": token["token_type"], "expires_in": token["expires_in"], "banks": len(response.json()["banks"])}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
