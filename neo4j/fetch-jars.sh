#!/usr/bin/env bash
# Fetches Neo4j 5.20 Community and its dependencies from Maven Central into neo4j/lib (git-ignored)
# and compiles the launcher into neo4j/lib/classes. Idempotent: does nothing when lib/ is complete
# for the current pom.xml and launcher sources; changed sources alone are only recompiled.
# Needs Maven and a JDK 17+ (javac).
# Usage: bash neo4j/fetch-jars.sh [--quiet]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
lib="$here/lib"
sources="$here/src/main/java/witness/neo4j"
quiet="${1:-}"
say() { [ "$quiet" = "--quiet" ] || echo "$@" >&2; }

mkdir -p "$lib"
# One fetch at a time (tests, the CLI and CI may ask concurrently).
exec 9>"$lib/.lock"
flock 9

# Same stamp as oracles/cypher/server/jars.ts: pom.xml, then the launcher's .java files by name.
stamp="$(cat "$here/pom.xml" $(LC_ALL=C ls "$sources"/*.java) | sha256sum | cut -c1-16)"
jars_stamp="$(sha256sum < "$here/pom.xml" | cut -c1-16)"
if [ -f "$lib/.complete" ] && [ "$(cat "$lib/.complete")" = "$stamp" ]; then
  exit 0
fi

command -v javac >/dev/null 2>&1 || { echo "neo4j/fetch-jars.sh: a JDK 17+ (javac) is needed; on Debian: apt-get install openjdk-17-jdk-headless" >&2; exit 3; }
rm -f "$lib/.complete"
if ! [ -f "$lib/.jars" ] || [ "$(cat "$lib/.jars")" != "$jars_stamp" ]; then
  command -v mvn >/dev/null 2>&1 || { echo "neo4j/fetch-jars.sh: Maven (mvn) is not installed; on Debian: apt-get install maven" >&2; exit 3; }
  say "Witness: fetching the Neo4j 5.20 jars from Maven Central into neo4j/lib (first use, or pom.xml changed: about 120 MB from Maven Central the first time, about a minute)..."
  rm -f "$lib"/*.jar "$lib/.jars"
  log="$lib/fetch.log"
  if ! mvn -q -B -f "$here/pom.xml" \
    org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$lib" >"$log" 2>&1; then
    echo "neo4j/fetch-jars.sh: Maven could not fetch the Neo4j jars (log: $log):" >&2
    tail -n 20 "$log" >&2
    exit 1
  fi
  echo "$jars_stamp" > "$lib/.jars"
fi
say "Witness: compiling the Neo4j launcher..."
# Compile next to the old classes, then swap, so a JVM starting meanwhile never sees a half-written folder.
rm -rf "$lib/classes.new"
mkdir -p "$lib/classes.new"
javac -nowarn --release 17 -cp "$lib/*" -d "$lib/classes.new" "$sources"/*.java >&2
rm -rf "$lib/classes"
mv "$lib/classes.new" "$lib/classes"
echo "$stamp" > "$lib/.complete"
say "Witness: Neo4j jars ready ($(ls "$lib"/*.jar | wc -l) jars, $(du -sh "$lib" | cut -f1))."
