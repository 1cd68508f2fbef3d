package io.mosaic.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.cooperative.SharingPolicy;
import io.mosaic.device.DevicePool;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import io.mosaic.table.TestPool;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Narrowing predicates (a join's dynamic filter) that arrive at random moments and rule out random
 * row groups, under every sharing policy, in vector and chunk mode, one scan alone or several at
 * once on one retriever: every scan ends without an error, hands out no row group twice nor one
 * outside its range, each with its right values, and every row that matches the narrowing as it
 * stood at the end. A narrowing is a hint, tested when a row group's turn comes: row groups it
 * rules out later may still come. Seeded: {@code -Dmosaic.seed=N} repeats a run's choices (thread
 * timing still varies).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LateNarrowingRandomTest {
  private static final int GROUPS = 24;
  private static final int GROUP_ROWS = 500;
  private static final long SECONDS_PER_POLICY = 3;
  private DevicePool pool;
  private MosaicTable table;
  // Per row group and column (k, v), the chunk's whole bytes and where they start in its file.
  private final byte[][][] chunkBytes = new byte[GROUPS][2][];
  private final long[][] chunkStart = new long[GROUPS][2];
  private long tableBytes;

  @BeforeAll
  void writeTable(@TempDir Path dir) throws IOException {
    pool = TestPool.fourDevices(dir);
    table =
        LateNarrowingTest.keyed(
            dir.resolve("t"), pool, GROUPS, GROUP_ROWS, Map.of("k", "nvme", "v", "ssd"));
    try (Retriever plain = new Retriever(pool);
        TablePin pin = table.pin();
        Scan scan =
            plain.chunks(
                table, pin, ScanRequest.of(List.of("k", "v")).recorded(false).pagePruning(false))) {
      while (scan.hasNext()) {
        RowGroupChunks g = scan.nextChunks();
        for (int c = 0; c < 2; c++) {
          chunkBytes[g.rowGroup()][c] = g.chunks().get(c).pieces().get(0).bytes();
          chunkStart[g.rowGroup()][c] = g.chunks().get(c).metadata().getStartingPos();
          tableBytes += chunkBytes[g.rowGroup()][c].length;
        }
      }
    }
  }

  private enum Mode {
    VECTOR,
    CHUNKS_AS_PAGE_SOURCE,
    CHUNKS_BLOCKING
  }

  /**
   * A narrowing that goes through {@code stages} (sets of row groups kept, each within the one
   * before): stage i from the {@code at[i]}-th time a scan asks for it, or earlier when the
   * consumer advances it. Row group g is kept by the predicate {@code k in (...)} through one value
   * of k that only g holds, {@code value[g]}.
   */
  private static final class Narrowing implements Supplier<Predicate> {
    final List<boolean[]> stages;
    final int[] at;
    final long[] value;
    final List<Predicate> predicates = new ArrayList<>();
    final AtomicInteger calls = new AtomicInteger();
    final AtomicInteger stage = new AtomicInteger();

    Narrowing(List<boolean[]> stages, int[] at, long[] value) {
      this.stages = stages;
      this.at = at;
      this.value = value;
      for (boolean[] kept : stages) {
        List<Long> in = new ArrayList<>();
        for (int g = 0; g < kept.length; g++) {
          if (kept[g]) {
            in.add(value[g]);
          }
        }
        predicates.add(
            in.size() == kept.length
                ? Predicate.ALL
                : in.isEmpty() ? LateNarrowingTest.NOTHING : Predicate.of(Predicate.in("k", in)));
      }
    }

    @Override
    public Predicate get() {
      int call = calls.incrementAndGet();
      int due = 0;
      for (int i = 1; i < at.length; i++) {
        due = call >= at[i] ? i : due;
      }
      return predicates.get(stage.accumulateAndGet(due, Math::max));
    }

    void advance() {
      stage.updateAndGet(s -> Math.min(s + 1, stages.size() - 1));
    }

    boolean[] now() {
      return stages.get(stage.get());
    }

    @Override
    public String toString() {
      List<String> out = new ArrayList<>();
      for (int i = 0; i < stages.size(); i++) {
        out.add("from call " + at[i] + ": " + predicates.get(i));
      }
      return out.toString();
    }
  }

  private record Job(
      Mode mode, int from, int to, Narrowing narrowing, double advance, long buffer, long seed) {
    @Override
    public String toString() {
      return mode
          + " of row groups ["
          + from
          + ", "
          + to
          + "), buffer "
          + buffer
          + ", "
          + narrowing;
    }
  }

  private Job job(Random random) {
    int from = random.nextInt(GROUPS / 2);
    int to = from + 1 + random.nextInt(GROUPS - from);
    long[] value = new long[GROUPS];
    for (int g = 0; g < GROUPS; g++) {
      // Not a row group's first or last row: lineitem-like keys could straddle those.
      value[g] = (long) g * GROUP_ROWS + 1 + random.nextInt(GROUP_ROWS - 2);
    }
    List<boolean[]> stages = new ArrayList<>();
    boolean[] kept = new boolean[GROUPS];
    Arrays.fill(kept, true);
    int n = 1 + random.nextInt(4);
    for (int i = 0; i < n; i++) {
      if (i > 0 || random.nextBoolean()) {
        double keep = random.nextDouble() * 0.8;
        boolean[] next = kept.clone();
        for (int g = 0; g < GROUPS; g++) {
          next[g] &= random.nextDouble() < keep;
        }
        kept = next;
      }
      stages.add(kept);
    }
    int[] at = new int[n];
    for (int i = 1; i < n; i++) {
      at[i] = at[i - 1] + random.nextInt(3 * (to - from) + 1);
    }
    Mode mode = Mode.values()[random.nextInt(Mode.values().length)];
    long groupBytes = tableBytes / GROUPS;
    long buffer = groupBytes / 2 + (long) (random.nextDouble() * 6 * groupBytes);
    return new Job(
        mode,
        from,
        to,
        new Narrowing(stages, at, value),
        random.nextDouble() * 0.5,
        buffer,
        random.nextLong());
  }

  /** Runs a job's scan to its end; returns per row group handed out the rows it holds. */
  private Map<Integer, long[]> run(Retriever retriever, Job job) throws Exception {
    Map<Integer, long[]> got = new HashMap<>();
    Random random = new Random(job.seed());
    ScanRequest request =
        ScanRequest.of(List.of("k", "v"))
            .rowGroups(job.from(), job.to())
            .recorded(false)
            .buffer(job.buffer())
            .narrowing(job.narrowing());
    try (TablePin pin = table.pin()) {
      if (job.mode() == Mode.VECTOR) {
        try (Scan scan = retriever.scan(table, request)) {
          while (scan.hasNext()) {
            VectorSchemaRoot batch = scan.next();
            BigIntVector k = (BigIntVector) batch.getVector(0);
            BigIntVector v = (BigIntVector) batch.getVector(1);
            long[] rows = new long[batch.getRowCount()];
            for (int i = 0; i < rows.length; i++) {
              rows[i] = k.get(i);
              assertThat(v.get(i)).as("v of k = %d", rows[i]).isEqualTo(7 * rows[i] % 1000);
            }
            took(got, scan.rowGroup(), rows, job, random);
          }
        }
        return got;
      }
      try (Scan scan = retriever.chunks(table, pin, request)) {
        if (job.mode() == Mode.CHUNKS_AS_PAGE_SOURCE) {
          new PageSourceDriver(scan).drain(g -> took(got, g, job, random));
        } else {
          while (scan.hasNext()) {
            RowGroupChunks g = scan.nextChunks();
            if (g == null) {
              assertThat(scan.hasNext()).as("no row group left after null").isFalse();
              break;
            }
            took(got, g, job, random);
          }
        }
      }
    }
    return got;
  }

  // Chunk mode: the row group's pieces are its file's bytes, and its rows those of its row ranges.
  private void took(Map<Integer, long[]> got, RowGroupChunks g, Job job, Random random) {
    int group = g.rowGroup();
    assertThat(g.rows()).isEqualTo(GROUP_ROWS);
    for (int c = 0; c < 2; c++) {
      for (ChunkPiece piece : g.chunks().get(c).pieces()) {
        int at = Math.toIntExact(piece.offset() - chunkStart[group][c]);
        assertThat(piece.bytes())
            .as("bytes of row group %d, column %d at %d", group, c, at)
            .isEqualTo(Arrays.copyOfRange(chunkBytes[group][c], at, at + piece.bytes().length));
      }
    }
    long[] rows = new long[Math.toIntExact(g.selectedRows())];
    int n = 0;
    for (int i = 0; i < GROUP_ROWS; i++) {
      if (g.rowRanges() == null || g.rowRanges().isOverlapping(i, i)) {
        rows[n++] = (long) group * GROUP_ROWS + i;
      }
    }
    assertThat(n).isEqualTo(rows.length);
    took(got, group, rows, job, random);
  }

  private void took(Map<Integer, long[]> got, int group, long[] rows, Job job, Random random) {
    assertThat(group).as("row group in range").isBetween(job.from(), job.to() - 1);
    assertThat(got.put(group, rows)).as("row group %d handed out twice", group).isNull();
    if (random.nextDouble() < job.advance()) {
      job.narrowing().advance(); // the filter arrives between two row groups
    }
  }

  /** Every row that matches the narrowing as it stood at the end was handed out. */
  private static void check(Job job, Map<Integer, long[]> got) {
    boolean[] kept = job.narrowing().now();
    for (int g = job.from(); g < job.to(); g++) {
      if (job.mode() == Mode.VECTOR && got.containsKey(g)) {
        long[] rows = got.get(g);
        assertThat(rows).hasSize(GROUP_ROWS);
        for (int i = 0; i < rows.length; i++) {
          assertThat(rows[i]).isEqualTo((long) g * GROUP_ROWS + i);
        }
      }
      if (!kept[g]) {
        continue;
      }
      long value = job.narrowing().value[g];
      assertThat(got).as("row group %d, kept by the narrowing", g).containsKey(g);
      assertThat(got.get(g)).as("rows of row group %d", g).contains(value);
    }
  }

  @Test
  void scansEndCleanlyWithEveryMatchingRowWhenNarrowingsArriveAtRandom() throws Exception {
    long seed = Long.getLong("mosaic.seed", System.nanoTime());
    System.out.println("LateNarrowingRandomTest: -Dmosaic.seed=" + seed);
    Random random = new Random(seed);
    Map<SharingPolicy, Integer> scans = new HashMap<>();
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      for (SharingPolicy policy : SharingPolicy.values()) {
        long groupBytes = tableBytes / GROUPS;
        long shared = 2 * groupBytes + (long) (random.nextDouble() * GROUPS * groupBytes);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS_PER_POLICY);
        try (Retriever retriever = new Retriever(pool, 2, 0, policy, shared)) {
          while (System.nanoTime() < end) {
            List<Job> jobs = new ArrayList<>();
            for (int n = 1 + random.nextInt(4); n > 0; n--) {
              jobs.add(job(random));
            }
            List<Future<Map<Integer, long[]>>> results = new ArrayList<>();
            for (Job j : jobs) {
              results.add(threads.submit(() -> run(retriever, j)));
            }
            for (int i = 0; i < jobs.size(); i++) {
              Job j = jobs.get(i);
              String what = "seed " + seed + ", " + policy + ", shared buffer " + shared + ", " + j;
              Map<Integer, long[]> got;
              try {
                got = results.get(i).get(60, TimeUnit.SECONDS);
              } catch (java.util.concurrent.ExecutionException e) {
                throw new AssertionError(what + ": " + e.getCause(), e.getCause());
              } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError(what + ": did not end in 60 s", e);
              }
              try {
                check(j, got);
              } catch (AssertionError e) {
                throw new AssertionError(what + ": " + e.getMessage(), e);
              }
            }
            scans.merge(policy, jobs.size(), Integer::sum);
          }
        }
      }
    } finally {
      threads.shutdownNow();
    }
    System.out.println("LateNarrowingRandomTest: scans per policy " + scans);
    assertThat(scans).hasSize(SharingPolicy.values().length);
  }
}
