#!/usr/bin/env bash
# The Kotlin SQLite cache's JVM tests (Kotlin/sqlite, Tests/BatonCodegenTests/KotlinSQLiteTests.swift) run it over
# JDBC with Debian's xerial driver (`org.sqlite.JDBC`, /usr/share/java/sqlite-jdbc.jar). Idempotent: installs only
# what is missing.
set -euo pipefail
SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
if ! dpkg-query -W -f='${Status}' libxerial-sqlite-jdbc-java 2>/dev/null | grep -q "install ok installed"; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends libxerial-sqlite-jdbc-java
fi
[ -f /usr/share/java/sqlite-jdbc.jar ] || { echo "sqlite-jdbc: /usr/share/java/sqlite-jdbc.jar is missing" >&2; exit 1; }
echo "sqlite-jdbc: /usr/share/java/sqlite-jdbc.jar ready"
