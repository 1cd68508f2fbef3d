package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.maintenance.GarbageCollector;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety, shown (DESIGN section 6): a writer/migration JVM ({@link CrashWorkload}) is killed
 * with SIGKILL at every crash point it passes. After each kill the table reopens, holds exactly the
 * batches committed so far with every segment's checksum intact, and gc leaves no file that the
 * table does not reference.
 */
public class CrashSafetyTest {
  @TempDir Path dir;

  @Test
  void killedAtEveryCrashPointTheTableStaysWhole() throws Exception {
    int points = run(dir.resolve("full"), 0).points;
    assertThat(points).as("crash points in the workload").isGreaterThanOrEqualTo(50);

    List<List<List<Object>>> batches = new ArrayList<>();
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root =
            VectorSchemaRoot.create(CrashWorkload.SCHEMA.arrowSchema(), alloc)) {
      for (int b = 0; b < CrashWorkload.BATCHES; b++) {
        CrashWorkload.fill(root, b);
        batches.add(TableRoundTripTest.values(root));
      }
    }
    Set<String> names = new HashSet<>();
    int killed = 0;
    for (int at = 1; at <= points; at++) {
      Run run = run(dir.resolve("kill-" + at), at);
      assertThat(run.crashPoint).as("kill point %d was reached", at).isNotNull();
      names.add(run.crashPoint);
      killed++;
      check(run.root, batches, at);
    }
    assertThat(killed).isGreaterThanOrEqualTo(50);
    assertThat(names)
        .contains(
            "segment-created",
            "row-group-written",
            "segment-finished",
            "manifest-written",
            "manifest-published",
            "segment-moved",
            "column-committed");
  }

  private record Run(Path root, int points, String crashPoint) {}

  /** Runs the workload in a new JVM; with {@code at > 0}, SIGKILLs it at that crash point. */
  private static Run run(Path root, int at) throws Exception {
    Files.createDirectories(root);
    DevicePool pool = TestPool.fourDevices(root);
    MosaicTable.create(root.resolve("t"), pool, CrashWorkload.SCHEMA, CrashWorkload.properties());
    List<String> command =
        ChildJvm.command(
            List.of("-Dmosaic.crash.at=" + at),
            CrashWorkload.class,
            List.of(root.resolve("devices.toml").toString(), root.resolve("t").toString()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String crashPoint = null;
    int points = 0;
    List<String> output = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        output.add(line);
        if (line.startsWith("CRASHPOINT ")) {
          crashPoint = line.split(" ")[2];
          process.destroyForcibly(); // SIGKILL: no shutdown hooks, no finally blocks
          break;
        }
        if (line.startsWith("DONE ")) {
          points = Integer.parseInt(line.substring(5).trim());
        }
      }
    }
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("workload did not end: " + output);
    }
    if (at == 0 && process.exitValue() != 0) {
      throw new AssertionError("workload failed: " + String.join("\n", output));
    }
    return new Run(root, points, crashPoint);
  }

  /**
   * Checks a table at {@code root/t} (pool {@code root/devices.toml}) after a kill: it holds a
   * prefix of {@code batches}, every row equal and every segment's checksum intact, and gc leaves
   * no file, manifest or writer lock it does not reference. The planner's crash tests use it too.
   */
  public static void check(Path root, List<List<List<Object>>> batches, int at) throws IOException {
    DevicePool pool = DevicePool.load(root.resolve("devices.toml"));
    MosaicTable table = MosaicTable.open(root.resolve("t"), pool);
    Manifest m = table.latest();
    // The committed content is a prefix of the batches: find how many, then compare every row.
    List<List<Object>> expected = new ArrayList<>();
    int committed = 0;
    while (expected.size() < m.rowCount() && committed < batches.size()) {
      expected.addAll(batches.get(committed++));
    }
    assertThat(m.rowCount()).as("kill %d: rows of v%d", at, m.version()).isEqualTo(expected.size());
    try (BufferAllocator alloc = new RootAllocator()) {
      TableRoundTripTest.assertRowsEqual(table, m, expected, alloc);
    }
    for (SegmentEntry s : m.segments()) {
      assertThat(crc(pool.device(s.device()).resolve(s.path())))
          .as("kill %d: checksum of %s", at, s.path())
          .isEqualTo(s.checksum());
    }
    // Leftovers (partial segments, temporary manifests, dead writers' locks) are cleaned by gc.
    new GarbageCollector(table).collect(Duration.ZERO);
    Set<Path> referenced = new HashSet<>();
    m.segments().forEach(s -> referenced.add(pool.device(s.device()).resolve(s.path())));
    try (Stream<Path> files = Files.walk(root.resolve("devices"))) {
      assertThat(files.filter(f -> f.toString().endsWith(".parquet")).toList())
          .as("kill %d: files on devices after gc", at)
          .containsExactlyInAnyOrderElementsOf(referenced);
    }
    try (Stream<Path> files = Files.list(table.root().resolve(MosaicTable.MANIFESTS))) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .as("kill %d: manifests after gc", at)
          .containsExactly(String.format(Locale.ROOT, "v%020d.json", m.version()));
    }
    Path writers = table.root().resolve(MosaicTable.WRITERS);
    if (Files.isDirectory(writers)) {
      try (Stream<Path> files = Files.list(writers)) {
        assertThat(files).as("kill %d: writer locks after gc", at).isEmpty();
      }
    }
  }

  private static String crc(Path file) throws IOException {
    CRC32C crc = new CRC32C();
    crc.update(Files.readAllBytes(file));
    return String.format(Locale.ROOT, "crc32c:%08x", crc.getValue());
  }
}
