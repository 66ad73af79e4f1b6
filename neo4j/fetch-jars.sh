#!/usr/bin/env bash
# Fetches Neo4j 5.20 Community and its dependencies from Maven Central into neo4j/lib (git-ignored)
# and compiles the launcher into neo4j/lib/classes. Idempotent: does nothing when lib/ is complete
# for the current pom.xml and Launcher.java. Needs Maven and a JDK 17+ (javac).
# Usage: bash neo4j/fetch-jars.sh [--quiet]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
lib="$here/lib"
source_file="$here/src/main/java/witness/neo4j/Launcher.java"
quiet="${1:-}"
say() { [ "$quiet" = "--quiet" ] || echo "$@" >&2; }

mkdir -p "$lib"
# One fetch at a time (tests, the CLI and CI may ask concurrently).
exec 9>"$lib/.lock"
flock 9

stamp="$(cat "$here/pom.xml" "$source_file" | sha256sum | cut -c1-16)"
if [ -f "$lib/.complete" ] && [ "$(cat "$lib/.complete")" = "$stamp" ]; then
  exit 0
fi

command -v mvn >/dev/null 2>&1 || { echo "neo4j/fetch-jars.sh: Maven (mvn) is not installed; on Debian: apt-get install maven" >&2; exit 3; }
command -v javac >/dev/null 2>&1 || { echo "neo4j/fetch-jars.sh: a JDK 17+ (javac) is needed; on Debian: apt-get install openjdk-17-jdk-headless" >&2; exit 3; }

say "Witness: fetching the Neo4j 5.20 jars from Maven Central into neo4j/lib (first use, or the launcher changed: about 120 MB from Maven Central the first time, about a minute)..."
rm -f "$lib"/*.jar "$lib/.complete"
rm -rf "$lib/classes"
log="$lib/fetch.log"
if ! mvn -q -B -f "$here/pom.xml" \
  org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
  -DincludeScope=runtime -DoutputDirectory="$lib" >"$log" 2>&1; then
  echo "neo4j/fetch-jars.sh: Maven could not fetch the Neo4j jars (log: $log):" >&2
  tail -n 20 "$log" >&2
  exit 1
fi
say "Witness: compiling the Neo4j launcher..."
mkdir -p "$lib/classes"
javac -nowarn --release 17 -cp "$lib/*" -d "$lib/classes" "$source_file" >&2
echo "$stamp" > "$lib/.complete"
say "Witness: Neo4j jars ready ($(ls "$lib"/*.jar | wc -l) jars, $(du -sh "$lib" | cut -f1))."
