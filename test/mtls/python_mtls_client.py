"""A partner's mutual-TLS client in Python's standard library only (ssl, urllib): a client-credentials token by
its certificate (RFC 8705, client_id alone), then the bank list with that certificate-bound token over the same
kind of connection. Prints {"token_type": ..., "banks": <count>} as JSON. Written for the interop test; it is also
what a partner's Python integration looks like.

Usage: python3 python_mtls_client.py <https base URL> <login> <cert.pem> <key.pem> <server CA.pem>
"""
import json
import ssl
import sys
import urllib.parse
import urllib.request


def main() -> None:
    base, login, cert, key, server_ca = sys.argv[1:6]
    context = ssl.create_default_context(cafile=server_ca)
    context.load_cert_chain(certfile=cert, keyfile=key)
    opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=context))
    form = urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": login}).encode()
    with opener.open(urllib.request.Request(f"{base}/api/v1/oauth/token", data=form, method="POST")) as response:
        token = json.load(response)
    banks_request = urllib.request.Request(
        f"{base}/partner/provider/sbp/banks/",
        data=b"",
        method="POST",
        headers={"Authorization": f"Bearer {token['access_token']}"},
    )
    with opener.open(banks_request) as response:
        banks = json.load(response)["banks"]
    print(json.dumps({"token_type": token["token_type"], "banks": len(banks)}))


if __name__ == "__main__":
    main()
