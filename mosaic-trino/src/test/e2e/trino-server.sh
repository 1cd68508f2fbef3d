#!/usr/bin/env bash
# End-to-end run of the Mosaic plugin in a real Trino server (docs/trino.md, "Real server"):
# fetches io.trino:trino-server:476 (tar.gz, ~820 MB) and the trino-cli executable jar from Maven
# Central (cached), installs target/plugin/mosaic, starts the server on localhost, runs CREATE
# TABLE AS and TPC-H queries through the CLI, checks them against the tpch catalog, and stops.
#
#   ./mvnw -q -o -pl mosaic-trino -am package -DskipTests
#   mosaic-trino/src/test/e2e/trino-server.sh            # from the repository root
#
# Environment: MOSAIC_E2E_CACHE (downloads, default ~/.cache/mosaic-e2e), MOSAIC_E2E_PORT (8080),
# JAVA_HOME (a JDK 24+; default: the one ./mvnw uses).
set -euo pipefail

VERSION=476
ROOT="$(cd "$(dirname "$0")/../../../.." && pwd)"
PLUGIN="$ROOT/mosaic-trino/target/plugin/mosaic"
CACHE="${MOSAIC_E2E_CACHE:-$HOME/.cache/mosaic-e2e}"
PORT="${MOSAIC_E2E_PORT:-8080}"
WORK="$(mktemp -d -t mosaic-trino-e2e.XXXXXX)"
CENTRAL=https://repo1.maven.org/maven2/io/trino

# Trino 476 needs JDK 24+: take the JDK 25 the build uses.
# shellcheck source=/dev/null
source "$ROOT/.mvn/jdk25.sh"
mosaic_use_jdk25

if [[ ! -f "$PLUGIN/mosaic-trino-0.1.0-SNAPSHOT-plugin.jar" ]]; then
  echo "no plugin at $PLUGIN: run ./mvnw -q -o -pl mosaic-trino -am package -DskipTests first" >&2
  exit 2
fi

mkdir -p "$CACHE"
fetch() {
  local url="$1" file="$CACHE/$(basename "$1")"
  if [[ ! -s "$file" ]]; then
    echo "fetching $url"
    curl -fL --retry 3 -o "$file.part" "$url"
    mv "$file.part" "$file"
  fi
  echo "$file"
}
TARBALL="$(fetch "$CENTRAL/trino-server/$VERSION/trino-server-$VERSION.tar.gz" | tail -1)"
CLI_JAR="$(fetch "$CENTRAL/trino-cli/$VERSION/trino-cli-$VERSION-executable.jar" | tail -1)"

echo "installing Trino $VERSION in $WORK"
tar -xzf "$TARBALL" -C "$WORK"
SERVER="$WORK/trino-server-$VERSION"
cp -r "$PLUGIN" "$SERVER/plugin/mosaic"

DATA="$WORK/data"
# Devices without emulation are real mounts: their directories must exist.
mkdir -p "$DATA/devices/fast" "$DATA/devices/slow" "$SERVER/etc/catalog"
cat > "$DATA/devices.toml" <<TOML
[[device]]
id = "fast"
path = "devices/fast"
capacity = "10 GB"
threads = 2
codec = "zstd"
cost_per_gb = "100 ct"
metadata = true

[[device]]
id = "slow"
path = "devices/slow"
capacity = "10 GB"
threads = 1
codec = "lz4"
cost_per_gb = "20 ct"
emulate = { read = "200 MB/s" }
TOML
# The device model `mosaic calibrate` would write (fast NVMe-like, slow HDD-like), for `place`.
cat > "$DATA/devices/fast/device-model.toml" <<'TOML'
[[model]]
device_id = "fast"
threads = 2
raw = "2000.0 MB/s"
seek = "0.100 ms"
zstd = "3000.0 MB/s"
zstd_ratio = 3.000

[[model]]
device_id = "slow"
threads = 1
raw = "200.0 MB/s"
seek = "8.000 ms"
lz4 = "300.0 MB/s"
lz4_ratio = 2.000
TOML
cat > "$SERVER/etc/node.properties" <<PROPS
node.environment=mosaic_e2e
node.id=mosaic-e2e-1
node.data-dir=$DATA/trino
PROPS
cat > "$SERVER/etc/jvm.config" <<'JVM'
-server
-Xmx2G
-XX:+UseG1GC
-XX:+ExitOnOutOfMemoryError
-Djdk.attach.allowAttachSelf=true
--add-opens=java.base/java.nio=ALL-UNNAMED
--enable-native-access=ALL-UNNAMED
--sun-misc-unsafe-memory-access=allow
JVM
cat > "$SERVER/etc/config.properties" <<PROPS
coordinator=true
node-scheduler.include-coordinator=true
http-server.http.port=$PORT
discovery.uri=http://localhost:$PORT
query.max-memory=1GB
query.max-memory-per-node=512MB
PROPS
# parquet-hadoop's codec pool logs every decompressor it creates at INFO.
echo "org.apache.hadoop.io.compress=WARN" > "$SERVER/etc/log.properties"
cat > "$SERVER/etc/catalog/mosaic.properties" <<PROPS
connector.name=mosaic
mosaic.devices-config=$DATA/devices.toml
mosaic.metadata-directory=$DATA/metadata
mosaic.scan-buffer-memory=64MB
mosaic.decode-threads=2
PROPS
cat > "$SERVER/etc/catalog/tpch.properties" <<'PROPS'
connector.name=tpch
tpch.column-naming=STANDARD
tpch.double-type-mapping=DECIMAL
PROPS

stop() {
  "$SERVER/bin/launcher" stop >/dev/null 2>&1 || true
}
trap stop EXIT

echo "starting the server on localhost:$PORT"
"$SERVER/bin/launcher" start
for _ in $(seq 1 120); do
  if curl -fs "http://localhost:$PORT/v1/info" 2>/dev/null | grep -q '"starting":false'; then
    break
  fi
  sleep 1
done
curl -fs "http://localhost:$PORT/v1/info" | grep -q '"starting":false' || {
  echo "the server did not start; its log:" >&2
  tail -50 "$DATA/trino/var/log/server.log" >&2
  exit 1
}

cli() {
  "$JAVA_HOME/bin/java" -jar "$CLI_JAR" --server "localhost:$PORT" "$@" 2> >(grep -v -e jline -e 'dumb terminal' >&2)
}

echo; echo "== CREATE SCHEMA and CREATE TABLE AS from tpch.tiny"
cli --execute "CREATE SCHEMA mosaic.tpch"
for t in region nation supplier customer part partsupp orders lineitem; do
  cli --execute "CREATE TABLE mosaic.tpch.$t AS SELECT * FROM tpch.tiny.$t"
done
cli --output-format ALIGNED --execute "SHOW TABLES FROM mosaic.tpch"
echo; echo "== CALL mosaic.system.move_columns: l_comment and l_shipinstruct to the slow device"
cli --execute "CALL mosaic.system.move_columns('tpch', 'lineitem', 'l_comment=slow, l_shipinstruct=slow')"
cli --output-format ALIGNED --execute "SELECT column_name, device, codec, compressed_bytes FROM mosaic.tpch.\"lineitem\$placement\" ORDER BY 1"

QUERIES="$ROOT/mosaic-trino/target/e2e-queries"
mkdir -p "$QUERIES"
(cd "$QUERIES" && unzip -o -q "$(ls "$HOME"/.m2/repository/io/trino/tpch/tpch/1.4/tpch-1.4.jar)" 'io/trino/tpch/queries/*')
status=0
for q in 1 3 5 6 10 12 14 19; do
  sql="$(grep -v '^--' "$QUERIES/io/trino/tpch/queries/q$q.sql" | sed 's/;\s*$//')"
  echo; echo "== TPC-H q$q on mosaic.tpch"
  mosaic="$(cli --catalog mosaic --schema tpch --output-format CSV --execute "$sql" | sort)"
  tpch="$(cli --catalog tpch --schema tiny --output-format CSV --execute "$sql" | sort)"
  echo "$mosaic" | head -5
  if [[ "$mosaic" == "$tpch" ]]; then
    echo "q$q: $(echo "$mosaic" | wc -l) rows, identical to the tpch catalog"
  else
    echo "q$q: DIFFERS from the tpch catalog" >&2
    status=1
  fi
done

# The planner inside the plugin's class loader: LOPT loads OR-Tools' natives from the plugin jars.
echo; echo "== \"lineitem\$plan\" (LOPT over the scans above), then CALL mosaic.system.place"
plan="$(cli --output-format CSV --execute "SELECT column_name, planned_device FROM mosaic.tpch.\"lineitem\$plan\" WHERE strategy = 'lopt'" | sort)"
cli --output-format ALIGNED --execute "SELECT column_name, current_device, planned_device, moves FROM mosaic.tpch.\"lineitem\$plan\" WHERE strategy = 'lopt' AND moves"
cli --execute "CALL mosaic.system.place(schema_name => 'tpch', table_name => 'lineitem')"
placed="$(cli --output-format CSV --execute "SELECT column_name, device FROM mosaic.tpch.\"lineitem\$placement\"" | sort)"
if [[ -n "$plan" && "$plan" == "$placed" ]]; then
  echo "place: every lineitem column is where LOPT planned it"
else
  echo "place: placement differs from the plan" >&2
  status=1
fi
exit $status
