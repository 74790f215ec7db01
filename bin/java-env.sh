# Sourced by ./run-local, ./fulfil-ops, ./tools/benchmarks/run and .ci/run: finds a JDK 21 or newer and
# sets JAVA_HOME to it, and the JVM flags those tools run with (JVM_FLAGS; MAVEN_OPTS for JDK 24+).

# The JDK's release file says its version without starting a JVM (each start costs a few hundred ms).
java_major() {
  if [ -f "$1/release" ]; then
    sed -n 's/^JAVA_VERSION="\(1\.\)\{0,1\}\([0-9]*\).*/\2/p' "$1/release"
  else
    "$1/bin/java" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}'
  fi
}

# JAVA_HOME if it is new enough, else the java on PATH, else any JDK in the usual places.
find_jdk() {
  local on_path="" candidate
  if command -v java >/dev/null 2>&1; then
    on_path=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
  fi
  for candidate in "${JAVA_HOME:-}" "$on_path" /usr/lib/jvm/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] || continue
    if [ "$(java_major "$candidate")" -ge 21 ] 2>/dev/null; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

# Sets JAVA_HOME and JVM_FLAGS, or says what is missing and returns 2.
use_jdk() {
  if ! JAVA_HOME=$(find_jdk); then
    echo "$(basename "$0") needs a JDK 21 or newer: install one and set JAVA_HOME to it." >&2
    return 2
  fi
  export JAVA_HOME
  # Often empty: callers expand it as ${JVM_FLAGS[@]+"${JVM_FLAGS[@]}"}, which bash 3's set -u accepts.
  JVM_FLAGS=()
  if [ "$(java_major "$JAVA_HOME")" -ge 24 ]; then
    # Pekko (ElasticMQ) and Maven's own Guice still use sun.misc.Unsafe: keep JDK 24+ from warning about it.
    JVM_FLAGS+=(--sun-misc-unsafe-memory-access=allow)
    export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
  fi
}
