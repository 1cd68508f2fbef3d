package io.mosaic.table;

import io.mosaic.config.DeviceMarker;
import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.maintenance.GarbageCollector;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The randomized concurrency and fault harness (issue 27, docs/format.md): each round starts a
 * table and five processes on it, a writer appending, a migrator moving random columns, gc looping
 * with no grace or the default hour, a reader checking every row of the versions it pins (every
 * other round as a server does, listing pins and collecting garbage in its own JVM), and a process
 * reading the latest version in a loop as an importer does before it writes. Each process is killed
 * with SIGKILL at a random moment with probability {@link #KILL_CHANCE}.
 *
 * <p>After each round: every acknowledged append is in the table, every file the latest version
 * refers to is there with its checksum, every reader got exactly the committed rows of the version
 * it pinned (a version's batches include every batch acknowledged at or before it) or a clear
 * error, no process hung, and gc leaves nothing unreferenced. Run on demand with {@code
 * benchmarks/bench}'s class path, or from {@code ConcurrencyHarnessTest} at a size that fits CI.
 */
public final class ConcurrencyHarness {
  static final double KILL_CHANCE = 0.4;
  // Each role runs this long from its start; kills fall after the JVMs have started and before
  // the roles end.
  private static final long RUN_MILLIS = 4_000;
  private static final long KILL_FROM_MILLIS = 1_000;
  private static final long KILL_WINDOW_MILLIS = 4_500;
  private static final long HANG_SECONDS = 180;
  private static final String[] ROLES = {"writer", "migrator", "gc", "reader", "latest"};

  /** What the rounds did, summed. */
  public static final class Totals {
    int rounds;
    final Map<String, Integer> killed = new TreeMap<>();
    // What the killed process had last reported doing when the kill came.
    final Map<String, Integer> killedAfter = new TreeMap<>();
    int acknowledged;
    int migrations;
    int gcPassesDeletingVersions;
    int gcPassesDeletingFiles;
    int reads;
    int readsOverlappingCommits;
    long latestReads;
    int serverRounds;
    final Map<String, Integer> errors = new TreeMap<>();
    final List<String> failures = new ArrayList<>();

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "rounds %d (%d with the reader as a server), processes killed %s, killed after %s;"
              + " appends acknowledged %d, migrations committed %d, gc passes deleting versions"
              + " %d and files %d, reads checked %d (%d of a version older than the newest"
              + " acknowledged), latest versions read %d, clear errors %s; failures %d%s",
          rounds,
          serverRounds,
          killed,
          killedAfter,
          acknowledged,
          migrations,
          gcPassesDeletingVersions,
          gcPassesDeletingFiles,
          reads,
          readsOverlappingCommits,
          latestReads,
          errors,
          failures.size(),
          failures.isEmpty()
              ? ""
              : ", the first: " + failures.subList(0, Math.min(3, failures.size())));
    }
  }

  private ConcurrencyHarness() {}

  /** {@code rounds seed directory}. */
  public static void main(String[] args) throws Exception {
    int rounds = Integer.parseInt(args[0]);
    long seed = Long.parseLong(args[1]);
    Path dir = Path.of(args[2]);
    long start = System.nanoTime();
    Totals totals = run(rounds, seed, dir, (r, t) -> System.out.println("round " + r + ": " + t));
    System.out.printf(Locale.ROOT, "%s%nin %.0f s%n", totals, (System.nanoTime() - start) / 1e9);
    System.exit(totals.failures.isEmpty() ? 0 : 1);
  }

  interface Progress {
    void round(int round, Totals totals);
  }

  static Totals run(int rounds, long seed, Path dir, Progress progress) throws Exception {
    return run(rounds, seed, dir, roundDir -> roundDir.resolve("t").toString(), progress);
  }

  /**
   * As {@link #run(int, long, Path, Progress)}, with each round's table at {@code location(round
   * directory)} ({@link TableProcess#open}: a root directory, or a lock-free table).
   */
  static Totals run(
      int rounds,
      long seed,
      Path dir,
      java.util.function.Function<Path, String> location,
      Progress progress)
      throws Exception {
    Totals totals = new Totals();
    Random random = new Random(seed);
    for (int r = 0; r < rounds; r++) {
      Path roundDir = dir.resolve("round-" + r);
      round(roundDir, location.apply(roundDir), r, random.nextLong(), totals);
      totals.rounds++;
      if (totals.failures.isEmpty()) {
        deleteTree(roundDir);
      }
      progress.round(r, totals);
    }
    return totals;
  }

  private record Child(String role, Process process, List<String> lines, Thread pump) {}

  private static void round(Path dir, String root, int round, long seed, Totals totals)
      throws Exception {
    Files.createDirectories(dir);
    DevicePool pool = TestPool.fourDevices(dir);
    VersionLog log = TableProcess.log(root, java.time.Clock.systemUTC());
    MosaicTable table =
        log == null
            ? MosaicTable.create(
                Path.of(root), pool, CrashWorkload.SCHEMA, CrashWorkload.properties())
            : MosaicTable.create(log, pool, CrashWorkload.SCHEMA, CrashWorkload.properties());
    Random random = new Random(seed);
    boolean server = round % 2 == 1;
    if (server) {
      totals.serverRounds++;
    }
    List<Child> children = new ArrayList<>();
    for (String role : ROLES) {
      List<String> args = new ArrayList<>();
      args.add(dir.resolve("devices.toml").toString());
      args.add(root);
      args.add(role);
      args.add(Long.toString(random.nextLong()));
      args.add(Long.toString(RUN_MILLIS));
      if (role.equals("writer")) {
        args.add("1");
      }
      if (role.equals("reader") && server) {
        args.add("server");
      }
      Process p = ChildJvm.start(TableProcess.class, args);
      List<String> lines = new ArrayList<>();
      Thread pump = new Thread(() -> pump(p, lines), "pump-" + role);
      pump.start();
      children.add(new Child(role, p, lines, pump));
    }
    // Kill at random moments, in the order they fall.
    TreeMap<Long, Child> kills = new TreeMap<>();
    for (Child c : children) {
      if (random.nextDouble() < KILL_CHANCE) {
        kills.put(
            (KILL_FROM_MILLIS + random.nextLong(KILL_WINDOW_MILLIS)) * 1000 + kills.size(), c);
      }
    }
    long t0 = System.currentTimeMillis();
    for (Map.Entry<Long, Child> k : kills.entrySet()) {
      long wait = t0 + k.getKey() / 1000 - System.currentTimeMillis();
      if (wait > 0) {
        Thread.sleep(wait);
      }
      Child c = k.getValue();
      if (c.process().isAlive()) {
        String last;
        synchronized (c.lines()) {
          last = "start";
          for (String line : c.lines()) {
            if (line.matches("(ACK|MIGRATED|GC|READ|ERROR|WRONG) .*")) {
              last = line.split(" ")[0];
            }
          }
        }
        c.process().destroyForcibly(); // SIGKILL
        totals.killed.merge(c.role(), 1, Integer::sum);
        totals.killedAfter.merge(c.role() + "@" + last, 1, Integer::sum);
      }
    }
    String where = "round " + round + " (" + dir + ")";
    for (Child c : children) {
      if (!c.process().waitFor(HANG_SECONDS, TimeUnit.SECONDS)) {
        c.process().destroyForcibly();
        totals.failures.add(where + ": " + c.role() + " hung; its output: " + c.lines());
      }
      c.pump().join(10_000);
      boolean killed = kills.containsValue(c);
      if (!killed && c.process().exitValue() != 0) {
        totals.failures.add(where + ": " + c.role() + " failed: " + c.lines());
      }
    }
    check(table, dir, root, pool, children, where, totals);
  }

  private static void pump(Process p, List<String> lines) {
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        synchronized (lines) {
          lines.add(line);
        }
      }
    } catch (IOException e) {
      // the process was killed
    }
  }

  private static void check(
      MosaicTable table,
      Path dir,
      String root,
      DevicePool pool,
      List<Child> children,
      String where,
      Totals totals)
      throws IOException {
    Map<Long, Integer> acked = new HashMap<>(); // version -> batch
    Map<Long, Set<Integer>> reads = new HashMap<>();
    List<String> readLines = new ArrayList<>();
    for (Child c : children) {
      for (String line : c.lines()) {
        String[] f = line.split(" ", 3);
        switch (f[0]) {
          case "ACK" -> acked.put(Long.parseLong(f[1]), Integer.parseInt(f[2]));
          case "MIGRATED" -> totals.migrations++;
          case "GC" -> {
            totals.gcPassesDeletingVersions += Integer.parseInt(f[1]) > 0 ? 1 : 0;
            totals.gcPassesDeletingFiles += Integer.parseInt(f[2]) > 0 ? 1 : 0;
          }
          case "READ" -> readLines.add(line);
          case "LATEST" -> totals.latestReads += Long.parseLong(f[1]);
          case "WRONG" -> totals.failures.add(where + ": " + c.role() + ": " + line);
          case "ERROR" -> {
            totals.errors.merge(c.role() + ": " + kind(line), 1, Integer::sum);
            if (c.role().equals("reader") || c.role().equals("latest")) {
              // A pinned version's files are never deleted, and the latest version is never
              // retired: a reader has no reason to fail.
              totals.failures.add(where + ": reader: " + line);
            }
          }
          default -> {}
        }
      }
    }
    totals.acknowledged += acked.size();
    if (System.getenv("MOSAIC_HARNESS_DEBUG") != null) {
      children.forEach(c -> System.out.println(c.role() + ": " + c.lines()));
    }
    Manifest latest = table.latest();
    Set<Integer> finalBatches;
    try (Retriever retriever = new Retriever(pool, 1, 0);
        Scan scan =
            retriever.scan(
                table,
                ScanRequest.of(
                        CrashWorkload.SCHEMA.columns().stream().map(ColumnSpec::name).toList())
                    .recorded(false))) {
      String wrong = TableProcess.check(scan, latest.rowCount());
      if (wrong != null) {
        totals.failures.add(where + ": latest v" + latest.version() + ": " + wrong);
        return;
      }
      finalBatches = lastBatches();
    } catch (RuntimeException e) {
      totals.failures.add(where + ": latest v" + latest.version() + " unreadable: " + e);
      return;
    }
    for (Map.Entry<Long, Integer> a : acked.entrySet()) {
      if (!finalBatches.contains(a.getValue())) {
        totals.failures.add(
            where + ": batch " + a.getValue() + " acknowledged at v" + a.getKey() + " is lost");
      }
    }
    long newestAck = acked.keySet().stream().mapToLong(Long::longValue).max().orElse(0);
    for (String line : readLines) {
      String[] f = line.split(" ");
      long v = Long.parseLong(f[1]);
      Set<Integer> batches = parseSet(f[2]);
      reads.merge(v, batches, (x, y) -> x); // the first; compared below
      if (!reads.get(v).equals(batches)) {
        totals.failures.add(where + ": two reads of v" + v + " differ: " + reads.get(v) + batches);
      }
      for (Map.Entry<Long, Integer> a : acked.entrySet()) {
        if (a.getKey() <= v && !batches.contains(a.getValue())) {
          totals.failures.add(where + ": v" + v + " read without batch " + a.getValue());
        }
      }
      if (!finalBatches.containsAll(batches)) {
        totals.failures.add(where + ": v" + v + " read batches the table never kept: " + line);
      }
      totals.reads++;
      if (v < newestAck) {
        totals.readsOverlappingCommits++;
      }
    }
    for (SegmentEntry s : latest.segments()) {
      Path f = pool.device(s.device()).resolve(s.path());
      if (!Files.exists(f) || !crc(f).equals(s.checksum())) {
        totals.failures.add(where + ": segment " + f + " is missing or damaged");
      }
    }
    // Nothing is left running: gc must now leave exactly the latest version's files. A lock-free
    // table's gc is run a day later (its clock), past every retention and lease.
    if (table.lockFree()) {
      ShiftedClock later = new ShiftedClock();
      later.advance(Duration.ofDays(1).toMillis());
      table = TableProcess.open(root, pool, later);
    }
    new GarbageCollector(table).collect(Duration.ZERO);
    Set<Path> referenced = new HashSet<>();
    latest.segments().forEach(s -> referenced.add(pool.device(s.device()).resolve(s.path())));
    try (Stream<Path> files = Files.walk(dir.resolve("devices"))) {
      List<Path> left =
          files
              .filter(Files::isRegularFile)
              .filter(f -> !referenced.contains(f))
              // a device's marker and a table folder's owner file are not garbage
              .filter(f -> !f.getFileName().toString().equals(DeviceMarker.FILE))
              .filter(f -> !f.getFileName().toString().equals(TableFolders.OWNER))
              // a killed process's temporary file: gc leaves it an hour (LEFTOVER_AGE)
              .filter(f -> !f.getFileName().toString().startsWith("."))
              .toList();
      if (!left.isEmpty()) {
        totals.failures.add(where + ": gc left unreferenced files " + left);
      }
    }
    if (table.lockFree()) {
      for (String leases : new String[] {Lease.WRITERS, Lease.READERS}) {
        List<String> left = table.log().storage().list(leases).stream().map(f -> f.key()).toList();
        if (!left.isEmpty()) {
          totals.failures.add(where + ": gc left leases " + left);
        }
      }
    }
    for (String sub :
        table.lockFree() ? new String[0] : new String[] {MosaicTable.PINS, MosaicTable.WRITERS}) {
      Path d = table.root().resolve(sub);
      if (Files.isDirectory(d)) {
        try (Stream<Path> files = Files.list(d)) {
          List<Path> left =
              files.filter(f -> !f.getFileName().toString().startsWith(".tmp-")).toList();
          if (!left.isEmpty()) {
            totals.failures.add(where + ": gc left lock files " + left);
          }
        }
      }
    }
    if (table.versions().size() != 1) {
      totals.failures.add(where + ": gc left versions " + table.versions());
    }
  }

  private static Set<Integer> lastBatches() {
    return TableProcess.lastBatches();
  }

  private static String kind(String errorLine) {
    String rest = errorLine.substring("ERROR ".length());
    int colon = rest.indexOf(':');
    return colon < 0 ? rest : rest.substring(0, colon);
  }

  private static Set<Integer> parseSet(String text) {
    Set<Integer> set = new TreeSet<>();
    String inner = text.substring(1, text.length() - 1);
    if (!inner.isEmpty()) {
      Arrays.stream(inner.split(",")).map(Integer::parseInt).forEach(set::add);
    }
    return set;
  }

  private static String crc(Path file) throws IOException {
    CRC32C crc = new CRC32C();
    crc.update(Files.readAllBytes(file));
    return String.format(Locale.ROOT, "crc32c:%08x", crc.getValue());
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted((a, b) -> b.compareTo(a)).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
