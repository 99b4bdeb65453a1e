#!/usr/bin/env bash
# Runs the PHP example with Debian's PHP 8.2 and phpseclib3 (apt-get install php-cli php-phpseclib3).
set -euo pipefail
cd "$(dirname "$0")"
command -v php >/dev/null || { echo "needs php (apt-get install php-cli php-phpseclib3)" >&2; exit 127; }
exec php banks.php
