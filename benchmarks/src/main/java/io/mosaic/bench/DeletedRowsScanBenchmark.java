package io.mosaic.bench;

import io.mosaic.device.DevicePool;
import io.mosaic.format.DeletedRows;
import io.mosaic.format.Manifest;
import io.mosaic.maintenance.TableCompactor;
import io.mosaic.scan.Retriever;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
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
 * A scan of a table with deleted rows against the scan of the same live rows compacted
 * (docs/format.md, "Deletion vectors"; docs/operations.md, "Compaction"). Goal: the first no more
 * than 1.15x the second.
 *
 * <p>One table of {@link MixedTable}'s four columns, 4 x 2^20 rows written at once (4 row groups of
 * the default {@code row_group_rows}); a DELETE of {@code deletedFraction} of its rows, each row
 * drawn with that probability from a seeded generator, committed as engines commit one ({@code
 * MosaicTable.changeRows} with the positions of a {@link DeletedRows.Collector}); then {@code
 * optimize} ({@link TableCompactor}), which rewrites the live rows without deletions. The versions
 * are pinned, so the compaction keeps the old segments, and scanned through the retriever with
 * every column: {@link #scanWithDeletions} decodes the stored rows and selects the live ones
 * ({@link MixedTable#scanLive}: core's scan hands out whole row groups, the live-row selection is
 * the engines'), {@link #scanCompacted} decodes the live rows only; both must return the same rows.
 * For context, {@link #scanBeforeDelete} scans the version before the DELETE: the same segments,
 * every row, no selection.
 *
 * <p>Run: {@code benchmarks/bench jmh DeletedRowsScanBenchmark -wi 3 -i 15 -f 1}, or {@code
 * benchmarks/bench DeletedRowsScanBenchmark} (the class's settings, then the ratio).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 15)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
public class DeletedRowsScanBenchmark {
  private static final long ROWS = 4L << 20;

  /** Share of the rows deleted. */
  @Param({"0.1"})
  public double deletedFraction;

  private Path dir;
  private MosaicTable table;
  private TablePin stored;
  private TablePin withDeletions;
  private TablePin compacted;
  private Retriever retriever;
  private long liveRows;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("mosaic-deleted-rows-jmh");
    DevicePool pool = MixedTable.pool(dir);
    table = MixedTable.create(dir.resolve("t"), pool, Map.of());
    Manifest written = table.append(List.of(new MixedTable.Rows(42).write(table, ROWS)));
    DeletedRows.Collector deleted = new DeletedRows.Collector();
    SplittableRandom random = new SplittableRandom(7);
    for (int g = 0; g < written.rowGroups().size(); g++) {
      long rows = written.rowGroups().get(g);
      for (int position = 0; position < rows; position++) {
        if (random.nextDouble() < deletedFraction) {
          deleted.add(DeletedRows.rowId(g, position));
        }
      }
    }
    stored = table.pin();
    table.changeRows("delete", written.version(), deleted.deletions(), List.of());
    withDeletions = table.pin();
    TableCompactor.Result result =
        new TableCompactor(table).optimize(new TableCompactor.Listener() {});
    if (!result.compacted()) {
      throw new IllegalStateException("optimize did not compact the table: " + result);
    }
    compacted = table.pin();
    liveRows = withDeletions.manifest().liveRowCount();
    retriever = new Retriever(pool);
    MixedTable.checkSameRows(
        "deleted rows against compacted", scanWithDeletions(), scanCompacted(), liveRows);
    System.out.printf(
        Locale.ROOT,
        "%n%d rows stored in %d row groups, %d deleted; compacted: %d rows in %d row groups%n",
        withDeletions.manifest().rowCount(),
        withDeletions.manifest().rowGroups().size(),
        withDeletions.manifest().rowCount() - liveRows,
        compacted.manifest().rowCount(),
        compacted.manifest().rowGroups().size());
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    retriever.close();
    stored.close();
    withDeletions.close();
    compacted.close();
    MixedTable.deleteTree(dir);
  }

  /**
   * Context: the version before the DELETE, the same segments without deletions, so every stored
   * row and no selection.
   */
  @Benchmark
  public long scanBeforeDelete() {
    long rows = MixedTable.scanLive(retriever, table, stored);
    if (rows != stored.manifest().rowCount()) {
      throw new IllegalStateException(
          "scan returned " + rows + " rows, not " + stored.manifest().rowCount());
    }
    return rows;
  }

  /** The version with deletion vectors: all stored rows decoded, the live ones selected. */
  @Benchmark
  public long scanWithDeletions() {
    return checked(MixedTable.scanLive(retriever, table, withDeletions));
  }

  /** The same live rows after {@code optimize}: no deletions, 10 % fewer rows stored. */
  @Benchmark
  public long scanCompacted() {
    return checked(MixedTable.scanLive(retriever, table, compacted));
  }

  private long checked(long rows) {
    if (rows != liveRows) {
      throw new IllegalStateException("scan returned " + rows + " rows, not " + liveRows);
    }
    return rows;
  }

  public static void main(String[] args) throws RunnerException {
    Collection<RunResult> results =
        new Runner(
                new OptionsBuilder()
                    .include(DeletedRowsScanBenchmark.class.getSimpleName())
                    .build())
            .run();
    Map<String, double[]> byFraction = new TreeMap<>();
    for (RunResult r : results) {
      String method = r.getParams().getBenchmark();
      int which = method.endsWith("scanWithDeletions") ? 0 : 1;
      byFraction
              .computeIfAbsent(r.getParams().getParam("deletedFraction"), k -> new double[2])[
              which] =
          r.getPrimaryResult().getScore();
    }
    byFraction.forEach(
        (fraction, s) ->
            System.out.printf(
                Locale.ROOT,
                "deletedFraction %s: with deletions %.1f ms, compacted %.1f ms, ratio %.3f"
                    + " (goal <= 1.15)%n",
                fraction,
                s[0],
                s[1],
                s[0] / s[1]));
  }
}
