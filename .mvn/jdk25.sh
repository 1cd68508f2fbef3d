# Sourced by ./mvnw, ./mosaic and .ci/run: point JAVA_HOME at a JDK 25, the JDK Mosaic builds with.
# Order: $JAVA_HOME if it is a JDK 25, else the first JDK 25 under /usr/lib/jvm, else a clear error.
mosaic_is_jdk25() {
  [ -x "$1/bin/javac" ] && [ -f "$1/release" ] && grep -q '^JAVA_VERSION="25' "$1/release"
}

mosaic_use_jdk25() {
  if [ -n "${JAVA_HOME:-}" ] && mosaic_is_jdk25 "$JAVA_HOME"; then
    return 0
  fi
  for candidate in /usr/lib/jvm/*; do
    if mosaic_is_jdk25 "$candidate"; then
      export JAVA_HOME="$candidate"
      export PATH="$JAVA_HOME/bin:$PATH"
      return 0
    fi
  done
  echo "error: Mosaic builds with JDK 25, and none was found (JAVA_HOME=${JAVA_HOME:-unset}; nothing under /usr/lib/jvm)." >&2
  echo "       Install one (e.g. Temurin 25) and set JAVA_HOME to it." >&2
  return 1
}
