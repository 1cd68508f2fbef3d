package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.config.DeviceConfigException;
import io.mosaic.device.DevicePool;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import io.mosaic.maintenance.GarbageCollector;
import io.mosaic.trace.TraceLog;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recovery (docs/format.md, "Devices, owners and what gc refuses"): an interrupted creation is
 * created again, a damaged newest manifest names the last good version and is rolled back from, and
 * oversized metadata files are refused by size, never read into memory.
 */
class RecoveryTest {
  @TempDir Path dir;
  private final BufferAllocator alloc = new RootAllocator();

  @AfterEach
  void closeAllocator() {
    alloc.close();
  }

  /** Creates the table of {@link CrashWorkload} at args[1]: the process the first test kills. */
  public static final class Create {
    public static void main(String[] args) {
      DevicePool pool = DevicePool.load(Path.of(args[0]));
      MosaicTable.create(Path.of(args[1]), pool, CrashWorkload.SCHEMA, CrashWorkload.properties());
      System.out.println("DONE");
    }
  }

  private List<List<Object>> rows(MosaicTable table) throws IOException {
    return TableRoundTripTest.rows(table, table.latest(), alloc);
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void aCreationKilledBeforeItsFirstVersionIsCreatedAgain() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    Path root = dir.resolve("t");
    // SIGKILL at the first crash point: the first manifest is written, not yet published.
    Process p =
        new ProcessBuilder(
                ChildJvm.command(
                    List.of("-Dmosaic.crash.at=1"),
                    Create.class,
                    List.of(dir.resolve("devices.toml").toString(), root.toString())))
            .redirectErrorStream(true)
            .start();
    String line = null;
    try (var out =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String l = out.readLine(); l != null; l = out.readLine()) {
        if (l.startsWith("CRASHPOINT ") || l.equals("DONE")) {
          line = l;
          break;
        }
      }
      p.destroyForcibly(); // SIGKILL
    }
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(line).isEqualTo("CRASHPOINT 1 manifest-written");
    assertThat(names(root.resolve(MosaicTable.MANIFESTS)))
        .singleElement()
        .asString()
        .startsWith(".tmp-");

    assertThat(MosaicTable.exists(root)).isFalse();
    assertThatThrownBy(() -> MosaicTable.open(root, pool))
        .isInstanceOf(TableNotFoundException.class)
        .hasMessage(
            "the creation of table t at "
                + root
                + " was interrupted: its _manifests directory holds no version (at most temporary"
                + " files of the interrupted command), so nothing was committed. Create the table"
                + " again; the directory is reused");

    MosaicTable table =
        MosaicTable.create(root, pool, CrashWorkload.SCHEMA, CrashWorkload.properties());
    CrashWorkload.append(table, 0);
    assertThat(names(root.resolve(MosaicTable.MANIFESTS)))
        .containsExactly("v00000000000000000001.json", "v00000000000000000002.json");
    assertThat(rows(MosaicTable.open(root, pool))).isEqualTo(CrashWorkload.rows(0));
  }

  @Test
  void aDamagedNewestManifestNamesTheLastGoodVersionAndRollbackRestoresIt() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table =
        MosaicTable.create(
            dir.resolve("t"), pool, CrashWorkload.SCHEMA, CrashWorkload.properties());
    CrashWorkload.append(table, 0); // v2
    CrashWorkload.append(table, 1); // v3
    Path v3 = table.manifestFile(3);
    byte[] good = Files.readAllBytes(v3);
    String hint =
        "the last good version is v2: roll back to it (docs/format.md), which publishes its"
            + " content as v4 and keeps the damaged file";

    Files.write(v3, new byte[0]);
    assertThatThrownBy(table::latest)
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining("manifest v3 of table t (" + v3 + ") is not a complete Mosaic")
        .hasMessageEndingWith(hint);
    Files.write(v3, java.util.Arrays.copyOf(good, good.length - 7)); // torn
    assertThatThrownBy(table::latest).hasMessageEndingWith(hint);
    Files.delete(v3);
    Files.createDirectories(v3.resolve("inside"));
    assertThatThrownBy(table::latest)
        .isInstanceOf(CorruptTableException.class)
        .hasMessage(
            "manifest v3 of table t (" + v3 + ") is a directory, not a manifest file; " + hint);
    // Both newest versions damaged: the hint goes back further.
    Path v2 = table.manifestFile(2);
    byte[] v2Bytes = Files.readAllBytes(v2);
    Files.write(v2, new byte[] {'{'});
    assertThatThrownBy(table::latest).hasMessageContaining("the last good version is v1");
    Files.write(v2, v2Bytes);
    assertThatThrownBy(() -> CrashWorkload.append(table, 2)).hasMessageEndingWith(hint);

    Manifest rolledBack = table.rollback(2);
    assertThat(rolledBack.version()).isEqualTo(4);
    assertThat(rolledBack.operation()).isEqualTo("rollback");
    assertThat(table.latest()).isEqualTo(rolledBack);
    assertThat(rows(table)).isEqualTo(CrashWorkload.rows(0));
    assertThat(v3).isDirectory(); // kept, as an older version
    CrashWorkload.append(table, 2);
    assertThat(rows(table)).isEqualTo(CrashWorkload.rows(0, 2));

    new GarbageCollector(table).collect(Duration.ZERO);
    Path manifests = table.root().resolve(MosaicTable.MANIFESTS);
    assertThat(names(manifests)).containsExactly("_damaged", "v00000000000000000005.json");
    assertThat(names(manifests.resolve("_damaged"))).containsExactly("v00000000000000000003.json");
    assertThat(rows(table)).isEqualTo(CrashWorkload.rows(0, 2));
    assertThatThrownBy(() -> table.rollback(5))
        .isInstanceOfSatisfying(
            MosaicException.class,
            e -> assertThat(e.kind()).isEqualTo(MosaicException.Kind.INVALID_ARGUMENT))
        .hasMessageContaining("already the newest");
    assertThatThrownBy(() -> table.rollback(2)).isInstanceOf(TableNotFoundException.class);
  }

  @Test
  void oversizedMetadataFilesAreRefusedBySizeBeforeReading() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table =
        MosaicTable.create(
            dir.resolve("t"), pool, CrashWorkload.SCHEMA, CrashWorkload.properties());
    CrashWorkload.append(table, 0);
    // Sparse files: 3 GiB on paper, nothing on disk; reading one whole would fail for memory.
    Path v3 = table.manifestFile(3);
    sparse(v3, 3L << 30);
    assertThatThrownBy(table::latest)
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining("manifest v3 of table t (" + v3 + ") is refused: " + v3 + " is ")
        .hasMessageContaining("more than a manifest can be (64 MiB)")
        .hasMessageContaining("the last good version is v2");
    Files.delete(v3);
    assertThat(rows(table)).isEqualTo(CrashWorkload.rows(0));

    Path trace = table.root().resolve("_trace/epoch-1/host-1-abc.jsonl");
    Files.createDirectories(trace.getParent());
    sparse(trace, 3L << 30);
    assertThatThrownBy(() -> new TraceLog(table.root()).read(1))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(trace + " is ")
        .hasMessageContaining("more than a trace file can be (256 MiB)")
        .hasMessageContaining("start a new trace epoch");
    // A line far longer than a record is not held in memory; it is damage, named with its line.
    String record =
        "{\"queryId\":\"q\",\"table\":\"t\",\"columns\":[\"k\"],\"rowGroups\":[0],"
            + "\"bytesPerDevice\":{\"nvme\":10},\"elapsedMillis\":1,\"at\":\"2026-01-01T00:00:00Z\"}\n";
    Files.writeString(trace, record + "x".repeat(3 << 20) + "\n" + record);
    assertThatThrownBy(() -> new TraceLog(table.root()).read(1))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("trace file " + trace + " is damaged at line 2 (longer than any")
        .hasMessageContaining("start a new trace epoch");
    // Only a last line cut short by a crash (no newline after it) is skipped.
    Files.writeString(trace, record + record + record.substring(0, 40));
    assertThat(new TraceLog(table.root()).read(1)).hasSize(2);

    Path config = dir.resolve("big.toml");
    sparse(config, 3L << 30);
    assertThatThrownBy(() -> DevicePool.load(config))
        .isInstanceOf(DeviceConfigException.class)
        .hasMessageContaining("more than a device configuration can be (16 MiB)");
  }

  private static void sparse(Path file, long length) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(length);
    }
  }
}
