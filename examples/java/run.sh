#!/usr/bin/env bash
# Compiles and runs the Java example with the JDK alone (apt-get install default-jdk-headless): no Maven.
set -euo pipefail
cd "$(dirname "$0")"
command -v javac >/dev/null || { echo "needs javac, JDK 17+ (apt-get install default-jdk-headless)" >&2; exit 127; }
if [ ! build/Banks.class -nt src/Banks.java ]; then javac -d build src/Banks.java; fi
# Java decodes the environment in the locale's charset: under the POSIX locale a non-ASCII password
# would reach the gateway as question marks.
export LC_ALL=C.UTF-8
exec java -cp build Banks
