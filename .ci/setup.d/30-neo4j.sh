#!/usr/bin/env bash
# Cypher oracle (CypherBench): a JDK 17 and Maven for the Neo4j 5.20 launcher, then its jars from
# Maven Central into neo4j/lib (git-ignored). The Cypher tests start Neo4j themselves; a missing
# server fails them. Idempotent: installs only what is missing, fetches only when lib/ is stale.
set -euo pipefail
cd "$(dirname "$0")/../.."
needed=()
command -v javac >/dev/null 2>&1 || needed+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || needed+=(maven)
source "$(dirname "$0")/../apt.sh"
apt_install "${needed[@]}"
bash neo4j/fetch-jars.sh --quiet
echo "neo4j launcher: $(java -version 2>&1 | head -n 1), $(ls neo4j/lib/*.jar | wc -l) jars in neo4j/lib"
