#!/bin/sh
# The TLS material of docker-compose.yml's mutual-TLS listener (lb, port 8443): a self-signed server
# certificate and its key in deploy/tls/ (server.crt, server.key), which the compose file mounts. For trying
# the gateway out; in production put your own certificate and key there. An existing pair is kept.
#   sh scripts/make-dev-tls.sh [directory] [host name]
set -eu
dir="${1:-deploy/tls}"
host="${2:-localhost}"
mkdir -p "$dir"
if [ -e "$dir/server.crt" ] && [ -e "$dir/server.key" ]; then
  echo "$dir/server.crt and server.key exist: kept"
  exit 0
fi
# P-256, valid 90 days, for the host name and the loopback address partners try it on.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 90 -subj "/CN=$host" \
  -addext "subjectAltName=DNS:$host,IP:127.0.0.1" -addext "extendedKeyUsage=serverAuth" \
  -keyout "$dir/server.key" -out "$dir/server.crt" 2>/dev/null
# nginx's master process reads the key as root before it drops privileges: the owner alone may read it.
chmod 600 "$dir/server.key"
echo "wrote $dir/server.crt and $dir/server.key (self-signed for $host)"
