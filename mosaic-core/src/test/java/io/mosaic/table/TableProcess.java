package io.mosaic.table;

import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.DeletedRows;
import io.mosaic.format.Manifest;
import io.mosaic.maintenance.GarbageCollector;
import io.mosaic.maintenance.Migrator;
import io.mosaic.maintenance.TableCompactor;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One role of the concurrency harness ({@link ConcurrencyHarness}) in its own JVM, so that it can
 * be killed with SIGKILL at any moment: {@code writer}, {@code migrator}, {@code gc}, {@code
 * reader}, {@code latest}, {@code changer}, {@code compactor}, or a one-shot {@code migrate
 * col=device...} / {@code gc-once}. It prints one line per event the harness checks: {@code ACK
 * <version> <batch> <lost>} after an append returned ({@code <lost>}: the versions its commit found
 * taken by other writers first, or {@code -}), {@code MIGRATED <version> <lost>} after a migration
 * committed, {@code CHANGING <base> <deleted> <inserted>} before a row change commits and {@code
 * CHANGED <version> <deleted> <inserted> <lost>} after ({@code <inserted>} a batch or {@code -}),
 * {@code OPTIMIZED <version> <lost>} after a compaction committed, {@code READ <version> <batches>}
 * after a scan that checked every row, {@code ERROR <message>} for a clear failure, {@code WRONG
 * <what>} for rows that are not the committed ones.
 *
 * <p>Rows are {@link CrashWorkload}'s batches: every value derives from the key {@code k = batch *
 * 100,000 + i}, so a reader can check any version without knowing which batches it holds.
 */
public final class TableProcess {
  private TableProcess() {}

  public static void main(String[] args) throws Exception {
    DevicePool pool = DevicePool.load(Path.of(args[0]));
    MosaicTable table = open(args[1], pool, java.time.Clock.systemUTC());
    String role = args[2];
    Random random = new Random(Long.parseLong(args[3]));
    // How long a looping role runs, from when its table is open: long enough for all roles to
    // overlap. Each loop runs at least once, so a JVM slow to start (HDFS) still reports.
    long until = System.currentTimeMillis() + Long.parseLong(args[4]);
    switch (role) {
      case "writer" ->
          writer(
              table,
              random,
              until,
              Integer.parseInt(args[5]),
              args.length > 6 ? Integer.parseInt(args[6]) : 30);
      case "migrator" -> migrator(table, random, until);
      case "changer" ->
          changer(table, pool, random, until, Integer.parseInt(args[5]), Integer.parseInt(args[6]));
      case "compactor" -> compactor(table, random, until);
      case "gc" -> gc(table, random, until, args.length > 5 ? Integer.parseInt(args[5]) : 20);
      case "reader" -> reader(table, pool, random, until, args.length > 5);
      case "latest" -> latest(table, until);
      case "migrate" -> migrate(table, parse(args, 5));
      case "gc-once" -> new GarbageCollector(table).collect(Duration.ZERO);
      case "change" -> {
        // One change, as RowChangeCrashTest kills it: delete batch args[5], insert batch args[6].
        System.out.println(CrashWorkload.STARTED);
        System.out.flush();
        try (Retriever retriever = new Retriever(pool, 1, 0);
            TablePin pin = table.pin()) {
          change(
              table,
              pin,
              liveRowsByBatch(table, pin, retriever).get(Integer.parseInt(args[5])),
              Integer.parseInt(args[6]));
        }
      }
      default -> throw new IllegalArgumentException("unknown role " + role);
    }
    System.out.println("DONE");
  }

  /**
   * The storage of the lock-free table this JVM opened: it notes each version name a commit found
   * taken, so that acknowledgements can say which races they lost. Null for a root directory.
   */
  private static io.mosaic.storage.CountingStorage storage;

  /**
   * The versions this process's commits lost to others since the last call: {@code -} or a list.
   */
  private static String lost() {
    if (storage == null) {
      return "-";
    }
    List<Long> versions = new ArrayList<>();
    for (String key : storage.drainTaken()) {
      java.util.regex.Matcher m = VERSION_KEY.matcher(key);
      if (m.find()) {
        versions.add(Long.parseLong(m.group(1)));
      }
    }
    return versions.isEmpty() ? "-" : versions.toString().replace(" ", "");
  }

  private static final java.util.regex.Pattern VERSION_KEY =
      java.util.regex.Pattern.compile("v(\\d{20})\\.json$");

  /** Names a table on local files kept with the lock-free protocol: {@code lockfree:<dir>}. */
  static final String LOCK_FREE = "lockfree:";

  /**
   * Short times for lock-free tables, so that gc retires versions and takes a killed writer's files
   * within a round: versions 3 s, tombstones 30 s, grace 0, skew 1 s, and leases of 60 s (a new
   * JVM's first write took over 20 s on 2 cores at load 18, and an expired lease fails the commit).
   */
  static final Retention RETENTION =
      new Retention(
          Duration.ofSeconds(3),
          Duration.ofSeconds(30),
          Duration.ZERO,
          Duration.ofSeconds(60),
          Duration.ofSeconds(1));

  /**
   * The harness's table at {@code location}: a root directory (the local protocol), {@link
   * #LOCK_FREE} and a directory, or a URI of other storage (both lock-free, with {@link #RETENTION}
   * and {@code clock}).
   */
  static MosaicTable open(String location, DevicePool pool, java.time.Clock clock) {
    VersionLog log = log(location, clock);
    return log == null ? MosaicTable.open(Path.of(location), pool) : MosaicTable.open(log, pool);
  }

  /** The version log of a lock-free {@code location}; null for a root directory. */
  static VersionLog log(String location, java.time.Clock clock) {
    io.mosaic.storage.Storage storage;
    try {
      if (location.startsWith(LOCK_FREE)) {
        Path dir = Path.of(location.substring(LOCK_FREE.length()));
        storage = new io.mosaic.storage.LocalStorage(java.nio.file.Files.createDirectories(dir));
      } else if (MosaicTable.isRemote(location)) {
        storage = io.mosaic.storage.Storages.open(java.net.URI.create(location));
      } else {
        return null;
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    TableProcess.storage = new io.mosaic.storage.CountingStorage(storage);
    return new VersionLog(TableProcess.storage, "", "t", RETENTION, clock);
  }

  private static Map<String, String> parse(String[] args, int from) {
    Map<String, String> placement = new LinkedHashMap<>();
    for (int i = from; i < args.length; i++) {
      String[] kv = args[i].split("=", 2);
      placement.put(kv[0], kv[1]);
    }
    return placement;
  }

  /**
   * Appends batches numbered from {@code firstBatch}, one commit each, until {@code until} (at most
   * {@link #BATCHES_PER_WRITER}), pausing up to {@code pauseMillis} between commits.
   */
  private static void writer(
      MosaicTable table, Random random, long until, int firstBatch, int pauseMillis)
      throws Exception {
    try (BufferAllocator alloc = new RootAllocator()) {
      int b = firstBatch;
      do {
        try (TableWriter writer = table.newWriter();
            VectorSchemaRoot batch =
                VectorSchemaRoot.create(CrashWorkload.SCHEMA.arrowSchema(), alloc)) {
          CrashWorkload.fill(batch, b);
          writer.write(batch);
          Manifest m = table.append(List.of(writer.finish()));
          System.out.println("ACK " + m.version() + " " + b + " " + lost());
        } catch (CorruptTableException | TableConflictException e) {
          System.out.println("ERROR " + oneLine(e));
        }
        b++;
        Thread.sleep(random.nextInt(pauseMillis + 1));
      } while (System.currentTimeMillis() < until && b < firstBatch + BATCHES_PER_WRITER);
    }
  }

  /** Batch numbers each writer process has to itself: the harness starts the n-th at n times it. */
  static final int BATCHES_PER_WRITER = 10_000;

  /** Moves random columns to random devices until {@code until}. */
  private static void migrator(MosaicTable table, Random random, long until) throws Exception {
    List<ColumnSpec> columns = CrashWorkload.SCHEMA.columns();
    do {
      Map<String, String> placement = new LinkedHashMap<>();
      for (ColumnSpec c : columns) {
        if (random.nextBoolean()) {
          placement.put(c.name(), TestPool.IDS[random.nextInt(TestPool.IDS.length)]);
        }
      }
      try {
        Migrator migrator = new Migrator(table);
        Migrator.Plan plan = migrator.plan(placement);
        if (plan.moves().isEmpty()) {
          // Nothing to move commits nothing: no version to claim.
          System.out.println("UNMOVED " + plan.baseVersion());
        } else {
          Manifest m = migrator.apply(plan, new Migrator.Listener() {});
          System.out.println("MIGRATED " + m.version() + " " + lost());
        }
      } catch (java.io.IOException | io.mosaic.MosaicException e) {
        // A clear error: a conflict, or a migration stopped with the table complete (its writer
        // lease expired under a long pause, as on an overloaded machine).
        System.out.println("ERROR " + oneLine(e));
      }
      Thread.sleep(random.nextInt(30));
    } while (System.currentTimeMillis() < until);
  }

  /**
   * Changes rows as a DELETE or an UPDATE does (docs/format.md, "Deletion vectors") until {@code
   * until}: reads a pinned version's keys, picks one of its batches and deletes all its live rows,
   * half the time inserting a new batch (numbered from {@code firstBatch}) in the same commit. A
   * whole batch, so that a reader can still tell a version's batches complete; after a compaction a
   * batch shares row groups with others, so its rows are then some of a row group's.
   */
  private static void changer(
      MosaicTable table,
      DevicePool pool,
      Random random,
      long until,
      int firstBatch,
      int pauseMillis)
      throws Exception {
    int next = firstBatch;
    try (Retriever retriever = new Retriever(pool, 1, 0)) {
      do {
        try (TablePin pin = table.pin()) {
          Map<Integer, DeletedRows.Collector> rows = liveRowsByBatch(table, pin, retriever);
          if (!rows.isEmpty()) {
            List<Integer> batches = new ArrayList<>(new TreeSet<>(rows.keySet()));
            int victim = batches.get(random.nextInt(batches.size()));
            int inserted = random.nextBoolean() ? next++ : -1;
            String what = victim + " " + (inserted >= 0 ? Integer.toString(inserted) : "-");
            // Before the commit: a kill after its publish leaves the batch deleted unannounced.
            System.out.println("CHANGING " + pin.version() + " " + what);
            Manifest m = change(table, pin, rows.get(victim), inserted);
            System.out.println("CHANGED " + m.version() + " " + what + " " + lost());
          }
        } catch (CorruptTableException | TableConflictException e) {
          System.out.println("ERROR " + oneLine(e));
        }
        Thread.sleep(random.nextInt(pauseMillis + 1));
      } while (System.currentTimeMillis() < until && next < firstBatch + BATCHES_PER_WRITER);
    }
  }

  /** Per batch, the ids of its rows the pinned version has not deleted. */
  static Map<Integer, DeletedRows.Collector> liveRowsByBatch(
      MosaicTable table, TablePin pin, Retriever retriever) {
    Map<Integer, DeletedRows.Collector> rows = new HashMap<>();
    try (Scan scan = retriever.scan(table, pin, ScanRequest.of(List.of("k")).recorded(false))) {
      while (scan.hasNext()) {
        BigIntVector k = (BigIntVector) scan.next().getVector(0);
        DeletedRows deleted = pin.manifest().deletedRows(scan.rowGroup());
        for (int r = 0; r < k.getValueCount(); r++) {
          if (deleted == null || !deleted.contains(r)) {
            rows.computeIfAbsent((int) (k.get(r) / 100_000), b -> new DeletedRows.Collector())
                .add(DeletedRows.rowId(scan.rowGroup(), r));
          }
        }
      }
    }
    return rows;
  }

  /**
   * Commits the deletion of {@code victim}'s rows of the pinned version, with batch {@code
   * inserted} written in the same commit when it is not negative (an UPDATE).
   */
  static Manifest change(
      MosaicTable table, TablePin pin, DeletedRows.Collector victim, int inserted)
      throws java.io.IOException {
    if (inserted < 0) {
      return table.changeRows("delete", pin.version(), victim.deletions(), List.of());
    }
    // Committed with the writer open, as an append is: its lease keeps its files from gc.
    try (BufferAllocator alloc = new RootAllocator();
        TableWriter writer = table.newWriter();
        VectorSchemaRoot batch =
            VectorSchemaRoot.create(CrashWorkload.SCHEMA.arrowSchema(), alloc)) {
      CrashWorkload.fill(batch, inserted);
      writer.write(batch);
      return table.changeRows(
          "update", pin.version(), victim.deletions(), List.of(writer.finish()));
    }
  }

  /** Compacts the latest version until {@code until}, as a background {@code optimize} does. */
  private static void compactor(MosaicTable table, Random random, long until) throws Exception {
    do {
      try {
        TableCompactor.Result r =
            new TableCompactor(table).optimize(new TableCompactor.Listener() {});
        System.out.println(
            r.compacted()
                ? "OPTIMIZED " + r.version().orElseThrow() + " " + lost()
                : "UNCOMPACTED " + r.baseVersion());
      } catch (java.io.IOException | io.mosaic.MosaicException e) {
        // A conflict: another commit came after the version compacted.
        System.out.println("ERROR " + oneLine(e));
      }
      Thread.sleep(random.nextInt(200));
    } while (System.currentTimeMillis() < until);
  }

  private static Manifest migrate(MosaicTable table, Map<String, String> placement)
      throws java.io.IOException {
    Migrator migrator = new Migrator(table);
    return migrator.apply(migrator.plan(placement), new Migrator.Listener() {});
  }

  /**
   * Collects until {@code until}, with no grace or the default hour, at random, pausing up to
   * {@code pauseMillis} between passes.
   */
  private static void gc(MosaicTable table, Random random, long until, int pauseMillis)
      throws Exception {
    do {
      Duration grace = random.nextBoolean() ? Duration.ZERO : Duration.ofHours(1);
      GarbageCollector.Report r = new GarbageCollector(table).collect(grace);
      System.out.println("GC " + r.manifests() + " " + r.files());
      Thread.sleep(random.nextInt(pauseMillis + 1));
    } while (System.currentTimeMillis() < until);
  }

  /**
   * Reads the latest version in a loop, as an importer or a query's planning does before it writes
   * or pins: retiring versions beside it must never make it fail. Prints {@code LATEST <reads>} at
   * the end, and {@code ERROR} for any failure.
   */
  private static void latest(MosaicTable table, long until) throws InterruptedException {
    long reads = 0;
    do {
      try {
        table.latest();
        if (++reads == 1) {
          System.out.println("LATEST 1"); // the first event: the harness may kill from now on
        }
      } catch (RuntimeException e) {
        System.out.println("ERROR " + oneLine(e));
      }
      Thread.sleep(1); // often, but leaving the cores to the roles that commit and collect
    } while (System.currentTimeMillis() < until);
    System.out.println("LATEST " + Math.max(0, reads - 1));
  }

  /**
   * Scans pinned versions and checks every row. With {@code server}, it also does what a server
   * does beside its queries: lists the pins and collects garbage in the same JVM while it reads.
   */
  private static void reader(
      MosaicTable table, DevicePool pool, Random random, long until, boolean server)
      throws Exception {
    List<String> names = CrashWorkload.SCHEMA.columns().stream().map(ColumnSpec::name).toList();
    try (Retriever retriever = new Retriever(pool, 1, 0)) {
      do {
        try (TablePin pin = table.pin()) {
          if (server) {
            table.pinnedVersions();
            new GarbageCollector(table).collect(Duration.ZERO);
          }
          Thread.sleep(random.nextInt(20));
          try (Scan scan =
              retriever.scan(table, pin, ScanRequest.of(names).recorded(false).buffer(1 << 20))) {
            String wrong = check(scan, pin.manifest().liveRowCount());
            System.out.println(
                wrong == null
                    ? "READ " + pin.version() + " " + batches(scan)
                    : "WRONG v" + pin.version() + ": " + wrong);
          }
        } catch (CorruptTableException | TableNotFoundException e) {
          System.out.println("ERROR " + oneLine(e));
        }
      } while (System.currentTimeMillis() < until);
    }
  }

  // The batches the last checked scan held (set by check).
  private static TreeSet<Integer> lastBatches = new TreeSet<>();

  static TreeSet<Integer> lastBatches() {
    return lastBatches;
  }

  private static String batches(Scan scan) {
    return lastBatches.toString().replace(" ", "");
  }

  /**
   * Null if the scan returns complete, correct batches and {@code rows} live rows, else what is
   * not. Rows the version deleted are left out, as the engines leave them out.
   */
  public static String check(Scan scan, long rows) {
    Map<Integer, boolean[]> seen = new HashMap<>();
    long total = 0;
    while (scan.hasNext()) {
      VectorSchemaRoot batch = scan.next();
      BigIntVector k = (BigIntVector) batch.getVector(0);
      Float8Vector v = (Float8Vector) batch.getVector(1);
      VarCharVector s = (VarCharVector) batch.getVector(2);
      DecimalVector d = (DecimalVector) batch.getVector(3);
      DeletedRows deleted = scan.manifest().deletedRows(scan.rowGroup());
      for (int r = 0; r < batch.getRowCount(); r++) {
        if (deleted != null && deleted.contains(r)) {
          continue;
        }
        long key = k.get(r);
        int b = (int) (key / 100_000);
        int i = (int) (key % 100_000);
        if (i >= CrashWorkload.ROWS
            || v.get(r) != key / 7.0
            || !new String(s.get(r), java.nio.charset.StandardCharsets.UTF_8).equals("row " + key)
            || !d.getObject(r).equals(BigDecimal.valueOf(key * 3, 2))) {
          return "row " + r + " with key " + key + " holds values of another row";
        }
        boolean[] has = seen.computeIfAbsent(b, x -> new boolean[CrashWorkload.ROWS]);
        if (has[i]) {
          return "key " + key + " twice";
        }
        has[i] = true;
        total++;
      }
    }
    if (total != rows) {
      return total + " rows where the version has " + rows;
    }
    for (Map.Entry<Integer, boolean[]> e : seen.entrySet()) {
      for (boolean b : e.getValue()) {
        if (!b) {
          return "batch " + e.getKey() + " incomplete";
        }
      }
    }
    lastBatches = new TreeSet<>(seen.keySet());
    return null;
  }

  private static String oneLine(Throwable e) {
    List<String> parts = new ArrayList<>();
    for (Throwable t = e; t != null && parts.size() < 3; t = t.getCause()) {
      parts.add(t.getClass().getSimpleName() + ": " + t.getMessage());
    }
    return String.join(" / ", parts).replace('\n', ' ');
  }
}
