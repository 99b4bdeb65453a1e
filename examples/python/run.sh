#!/usr/bin/env bash
# Runs the Python example with Debian's Python 3 and python3-cryptography (apt-get install python3-cryptography).
set -euo pipefail
cd "$(dirname "$0")"
PYTHON="${PYTHON:-/usr/bin/python3}"
"$PYTHON" -c 'import cryptography' 2>/dev/null || { echo "needs $PYTHON with cryptography (apt-get install python3-cryptography)" >&2; exit 127; }
exec "$PYTHON" banks.py
