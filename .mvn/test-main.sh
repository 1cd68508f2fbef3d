# Sourced by mosaic-spark/bench and mosaic-trino/tpch-bench: runs a main class from a module's test
# class path, compiled from this tree (the reactor), not from snapshots in ~/.m2.
# Usage: mosaic_test_main MODULE HEAP CLASS [ARGS...], from the repository's root.
. "$(dirname "${BASH_SOURCE[0]}")/jdk25.sh"

mosaic_test_main() {
  local module="$1" heap="$2" class="$3"
  shift 3
  ./mvnw -q -pl "$module" -am test-compile dependency:build-classpath \
    -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
  mosaic_use_jdk25 || return 1
  local flags
  flags="$(sed -n 's:.*<test.jvm.flags>\(.*\)</test.jvm.flags>.*:\1:p' pom.xml)"
  # shellcheck disable=SC2086
  exec "$JAVA_HOME/bin/java" "-Xmx$heap" $flags \
    -cp "$module/target/test-classes:$module/target/classes:$(cat "$module/target/test-classpath.txt")" \
    "$class" "$@"
}
