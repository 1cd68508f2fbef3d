package io.mosaic.bench;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.TableProperties;
import io.mosaic.maintenance.TableCompactor;
import io.mosaic.scan.Retriever;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import io.mosaic.table.WriteResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * A table fed by many small inserts, compacted, against the same rows written at once
 * (docs/operations.md, "Compaction"). Goal: the compacted table scans within 1.1x the other.
 *
 * <p>Table C gets {@link #INSERTS} inserts of {@link #ROWS_PER_INSERT} rows of {@link MixedTable}'s
 * four columns, each from its own writer, as separate INSERT statements write them; each insert is
 * fewer rows than {@code row_group_rows}, so each leaves one row group (and one segment per
 * column). They are committed together, in one version: its row groups and segments are those 1,000
 * commits leave, without the 1,000 versions in between, whose growing manifests make building take
 * minutes. {@code optimize} ({@link TableCompactor}) then rewrites C into row groups of {@code
 * row_group_rows}. Table D holds the same rows (same seed, same order) from one writer. Both use
 * {@code row_group_rows} = 2^18, so the compacted C and D have the same row groups. {@link
 * #scanInsertsUncompacted} scans C's version before the compaction (pinned, so its segments stay),
 * for the cost the compaction removes. Every scan reads all columns through the retriever and must
 * return every row.
 *
 * <p>Run: {@code benchmarks/bench jmh SmallInsertsCompactionBenchmark -wi 1 -i 5 -f 1}, or {@code
 * benchmarks/bench SmallInsertsCompactionBenchmark} (the class's settings, then the ratios).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
public class SmallInsertsCompactionBenchmark {
  static final int INSERTS = 1_000;
  static final int ROWS_PER_INSERT = 1_024;
  private static final long ROW_GROUP_ROWS = 1L << 18;

  private Path dir;
  private MosaicTable inserted;
  private MosaicTable atOnce;
  private TablePin uncompacted;
  private TablePin compacted;
  private TablePin writtenAtOnce;
  private Retriever retriever;
  private long rows;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("mosaic-small-inserts-jmh");
    DevicePool pool = MixedTable.pool(dir);
    Map<String, String> properties = new HashMap<>();
    properties.put(TableProperties.ROW_GROUP_ROWS, Long.toString(ROW_GROUP_ROWS));
    rows = (long) INSERTS * ROWS_PER_INSERT;

    long start = System.nanoTime();
    inserted = MixedTable.create(dir.resolve("c"), pool, properties);
    MixedTable.Rows insertRows = new MixedTable.Rows(42);
    // One writer per insert, as each INSERT has its own, but one commit for all: a version's
    // manifest lists every segment, so 1,000 commits write 1,000 ever longer manifests, which
    // optimize then reads (minutes; docs/benchmarks.md, "Table operations"). The version scanned
    // is the same.
    List<WriteResult> writes = new ArrayList<>();
    for (int i = 0; i < INSERTS; i++) {
      writes.add(insertRows.write(inserted, ROWS_PER_INSERT));
    }
    inserted.append(writes);
    double insertSeconds = (System.nanoTime() - start) / 1e9;
    uncompacted = inserted.pin();
    if (uncompacted.manifest().rowGroups().size() != INSERTS) {
      throw new IllegalStateException(
          "the inserts left "
              + uncompacted.manifest().rowGroups().size()
              + " row groups, not one each");
    }
    start = System.nanoTime();
    TableCompactor.Result result =
        new TableCompactor(inserted).optimize(new TableCompactor.Listener() {});
    double optimizeSeconds = (System.nanoTime() - start) / 1e9;
    if (!result.compacted()) {
      throw new IllegalStateException("optimize did not compact the table: " + result);
    }
    compacted = inserted.pin();

    atOnce = MixedTable.create(dir.resolve("d"), pool, properties);
    atOnce.append(List.of(new MixedTable.Rows(42).write(atOnce, rows)));
    writtenAtOnce = atOnce.pin();

    Manifest c = compacted.manifest();
    Manifest d = writtenAtOnce.manifest();
    if (!c.rowGroups().equals(d.rowGroups())) {
      throw new IllegalStateException(
          "compacted row groups " + c.rowGroups() + " differ from " + d.rowGroups());
    }
    retriever = new Retriever(pool);
    MixedTable.checkSameRows(
        "compacted inserts against written at once",
        scanInsertsCompacted(),
        scanWrittenAtOnce(),
        rows);
    MixedTable.checkSameRows(
        "inserts against written at once", scanInsertsUncompacted(), scanWrittenAtOnce(), rows);
    System.out.printf(
        Locale.ROOT,
        "%n%d inserts of %d rows in %.1f s (%d row groups), optimize %.1f s -> %d row groups;"
            + " written at once: %d row groups; compressed bytes per column, compacted %s, written"
            + " at once %s%n",
        INSERTS,
        ROWS_PER_INSERT,
        insertSeconds,
        uncompacted.manifest().rowGroups().size(),
        optimizeSeconds,
        c.rowGroups().size(),
        d.rowGroups().size(),
        compressedBytes(c),
        compressedBytes(d));
  }

  /** Per column, the compressed bytes a scan of {@code m} reads: the two tables should match. */
  private static Map<String, Long> compressedBytes(Manifest m) {
    Map<String, Long> bytes = new java.util.TreeMap<>();
    m.segments().forEach(s -> bytes.merge(s.column(), s.compressedBytes(), Long::sum));
    return bytes;
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    retriever.close();
    uncompacted.close();
    compacted.close();
    writtenAtOnce.close();
    MixedTable.deleteTree(dir);
  }

  /** C after {@code optimize}. */
  @Benchmark
  public long scanInsertsCompacted() {
    return checked(MixedTable.scanLive(retriever, inserted, compacted));
  }

  /** D: the same rows from one writer. */
  @Benchmark
  public long scanWrittenAtOnce() {
    return checked(MixedTable.scanLive(retriever, atOnce, writtenAtOnce));
  }

  /** C before {@code optimize}: one row group per insert. */
  @Benchmark
  public long scanInsertsUncompacted() {
    return checked(MixedTable.scanLive(retriever, inserted, uncompacted));
  }

  private long checked(long scanned) {
    if (scanned != rows) {
      throw new IllegalStateException("scan returned " + scanned + " rows, not " + rows);
    }
    return scanned;
  }

  public static void main(String[] args) throws RunnerException {
    Collection<RunResult> results =
        new Runner(
                new OptionsBuilder()
                    .include(SmallInsertsCompactionBenchmark.class.getSimpleName())
                    .build())
            .run();
    Map<String, Double> score = new HashMap<>();
    for (RunResult r : results) {
      String method = r.getParams().getBenchmark();
      score.put(method.substring(method.lastIndexOf('.') + 1), r.getPrimaryResult().getScore());
    }
    double once = score.get("scanWrittenAtOnce");
    System.out.printf(
        Locale.ROOT,
        "compacted / written at once %.3f (goal <= 1.1); uncompacted / written at once %.3f%n",
        score.get("scanInsertsCompacted") / once,
        score.get("scanInsertsUncompacted") / once);
  }
}
