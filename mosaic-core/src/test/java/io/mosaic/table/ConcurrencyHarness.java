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
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The randomized concurrency and fault harness (issue 27, docs/format.md): each round starts a
 * table and processes on it, writers appending, a migrator moving random columns, a changer
 * deleting batches (half the time inserting one in the same commit, as an UPDATE does), a compactor
 * running {@code optimize}, gc looping with no grace or the default hour, a reader checking every
 * row of the versions it pins (as a server does, listing pins and collecting garbage in its own
 * JVM, every other round or beside a plain reader), and a process reading the latest version in a
 * loop as an importer does before it writes. Processes are killed with SIGKILL at random moments,
 * never before their first event (a commit, a read, a gc pass): a JVM slow to start, as an HDFS
 * client is, still has every round check something. A {@link Shape} says how many writers race, how
 * long a round runs and whether killed processes start again.
 *
 * <p>After each round: every acknowledged append is in the table unless a change deleted it, no
 * acknowledged deletion shows its rows again, no version was acknowledged to two committers, every
 * file the latest version refers to is there with its checksum, every reader got exactly the
 * committed rows of the version it pinned (a version's batches include every batch acknowledged at
 * or before it) or a clear error, no process hung, and gc leaves nothing unreferenced. Run on
 * demand with {@code mosaic-core/harness}, or from {@code ConcurrencyHarnessTest} and {@code
 * HdfsConcurrencyHarnessTest} at a size that fits CI.
 */
public final class ConcurrencyHarness {
  private static final long HANG_MILLIS = 180_000;

  /**
   * How a round runs: {@code writers} writer processes racing for each next version, the roles
   * running {@code runMillis} from when their table is open, each process killed with probability
   * {@code killChance} at a uniform moment within {@code killWindowMillis} after its first event,
   * killed (or finished) processes started again until the round's end when {@code restart}, gc
   * pausing up to {@code gcPauseMillis} between passes and writers up to {@code writerPauseMillis}
   * between commits, and {@code bothReaders}: a plain reader and a server reader every round (else
   * one reader, a server every other round).
   */
  record Shape(
      int writers,
      long runMillis,
      double killChance,
      long killWindowMillis,
      boolean restart,
      int gcPauseMillis,
      int writerPauseMillis,
      boolean bothReaders) {
    /** The harness of issue 27: one process per role, each killed at most once. */
    static final Shape ROLES = new Shape(1, 4_000, 0.4, 4_500, false, 20, 30, false);

    /**
     * Contested commits (issue 42's acceptance): four writers in a tight loop, gc about every
     * second, two readers; a process is killed (probability 0.7) at a uniform moment within {@code
     * killWindowMillis} of its first event and started again, for rounds of {@code runMillis}.
     */
    static Shape contested(long runMillis, long killWindowMillis) {
      return new Shape(4, runMillis, 0.7, killWindowMillis, true, 1_000, 2, true);
    }
  }

  /** What the rounds did, summed. */
  public static final class Totals {
    int rounds;
    final Map<String, Integer> killed = new TreeMap<>();
    // What the killed process had last reported doing when the kill came.
    final Map<String, Integer> killedAfter = new TreeMap<>();
    int restarts;
    int acknowledged;
    int migrations;
    int changes;
    int compactions;
    int deletedRowsShown;
    // Versions some committer found taken (several raced for them), the races lost, and the
    // acknowledged commits that lost at least one race first.
    int contestedVersions;
    long lostRaces;
    int commitsThatLost;
    int versionsWithTwoWinners;
    int lostAcknowledged;
    int scansFailing;
    int scansMissingAFile;
    int wrongReads;
    int gcPassesDeletingVersions;
    int gcPassesDeletingFiles;
    int reads;
    int readsOverlappingCommits;
    long latestReads;
    int serverRounds;
    // Where a writer's time goes: JVM start to its first acknowledgement, and between two.
    long writerStarts;
    long startToFirstAckMillis;
    long commitsTimed;
    long betweenAcksMillis;
    long millis;
    final Map<String, Integer> errors = new TreeMap<>();
    // The first message of each kind of clear error, to tell a conflict from a missing file.
    final Map<String, String> firstErrors = new TreeMap<>();
    final List<String> failures = new ArrayList<>();

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "rounds %d (%d with a reader as a server) in %.0f s, processes killed %s, killed after"
              + " %s, restarted %d; appends acknowledged %d, migrations committed %d, row changes"
              + " committed %d, compactions committed %d, deleted rows shown again %d, contested"
              + " versions %d (%d races lost; %d acknowledged commits lost one first), versions"
              + " with two winners %d, lost acknowledged appends %d, scans failing %d (on a"
              + " missing file %d), wrong reads %d; gc passes deleting versions %d and files %d,"
              + " reads checked %d (%d of a version older than the newest acknowledged), latest"
              + " versions read %d; writer JVM start to first ack %.0f ms (%d starts), between"
              + " acks %.1f ms; clear errors %s (the first of each: %s); failures %d%s",
          rounds,
          serverRounds,
          millis / 1e3,
          killed,
          killedAfter,
          restarts,
          acknowledged,
          migrations,
          changes,
          compactions,
          deletedRowsShown,
          contestedVersions,
          lostRaces,
          commitsThatLost,
          versionsWithTwoWinners,
          lostAcknowledged,
          scansFailing,
          scansMissingAFile,
          wrongReads,
          gcPassesDeletingVersions,
          gcPassesDeletingFiles,
          reads,
          readsOverlappingCommits,
          latestReads,
          writerStarts == 0 ? 0.0 : (double) startToFirstAckMillis / writerStarts,
          writerStarts,
          commitsTimed == 0 ? 0.0 : (double) betweenAcksMillis / commitsTimed,
          errors,
          firstErrors,
          failures.size(),
          failures.isEmpty()
              ? ""
              : ", the first: " + failures.subList(0, Math.min(3, failures.size())));
    }
  }

  private ConcurrencyHarness() {}

  /**
   * {@code rounds seed directory [lockfree]}: rounds of {@link Shape#ROLES} on local tables (with
   * {@code lockfree}, kept with the lock-free protocol). With {@code -Dmosaic.harness.commits=N},
   * rounds of {@link Shape#contested} (of {@code -Dmosaic.harness.roundMillis}, default 20 s) run
   * until N appends were acknowledged or {@code -Dmosaic.harness.maxMinutes} (default 60) passed;
   * {@code rounds} is then ignored.
   */
  public static void main(String[] args) throws Exception {
    int rounds = Integer.parseInt(args[0]);
    long seed = Long.parseLong(args[1]);
    Path dir = Path.of(args[2]);
    boolean lockFree = args.length > 3 && args[3].equals("lockfree");
    java.util.function.Function<Path, String> location =
        lockFree ? d -> TableProcess.LOCK_FREE + d.resolve("t") : d -> d.resolve("t").toString();
    Progress progress = (r, t) -> System.out.println("round " + r + ": " + t);
    Totals totals =
        Long.getLong("mosaic.harness.commits", 0) > 0
            ? contested(0, seed, dir, location, progress)
            : run(Shape.ROLES, rounds, 0, Long.MAX_VALUE, seed, dir, location, progress);
    System.out.println(totals);
    System.exit(totals.failures.isEmpty() ? 0 : 1);
  }

  /**
   * Rounds of {@link Shape#contested}: with {@code -Dmosaic.harness.commits=N}, rounds of {@code
   * -Dmosaic.harness.roundMillis} (default 20 s) until N appends were acknowledged or {@code
   * -Dmosaic.harness.maxMinutes} (default 60) passed, killing within {@code
   * -Dmosaic.harness.killWindowMillis} (default 3 s) of a start's first event; else one round of
   * {@code ciMillis}.
   */
  static Totals contested(
      long ciMillis,
      long seed,
      Path dir,
      java.util.function.Function<Path, String> location,
      Progress progress)
      throws Exception {
    long commits = Long.getLong("mosaic.harness.commits", 0);
    if (commits <= 0) {
      return run(
          Shape.contested(ciMillis, 3_000), 1, 0, Long.MAX_VALUE, seed, dir, location, progress);
    }
    return run(
        Shape.contested(
            Long.getLong("mosaic.harness.roundMillis", 20_000),
            Long.getLong("mosaic.harness.killWindowMillis", 3_000)),
        Integer.MAX_VALUE,
        commits,
        Long.getLong("mosaic.harness.maxMinutes", 60) * 60_000,
        seed,
        dir,
        location,
        progress);
  }

  /**
   * What a contested run must show: no failure (no lost acknowledged append, no version with two
   * winners, no scan failing or reading wrong rows), and contested versions, reads and kills.
   */
  static void assertContestedPromisesKept(Totals totals, long seed) {
    org.assertj.core.api.Assertions.assertThat(totals.failures)
        .as("seed %d: %s", seed, totals)
        .isEmpty();
    org.assertj.core.api.Assertions.assertThat(
            new long[] {
              totals.lostAcknowledged,
              totals.versionsWithTwoWinners,
              totals.scansFailing,
              totals.wrongReads,
              totals.deletedRowsShown
            })
        .as("lost acknowledged, two winners, failing scans, wrong reads, deleted rows shown")
        .containsOnly(0);
    org.assertj.core.api.Assertions.assertThat(totals.acknowledged)
        .as("appends acknowledged")
        .isPositive();
    if (totals.acknowledged >= 50) {
      // A short round on a loaded machine may end with each writer's first commit alone (a JVM's
      // first commit took 36 s at load 30); fifty commits of four writers cannot all miss.
      org.assertj.core.api.Assertions.assertThat(totals.contestedVersions)
          .as("contested versions")
          .isPositive();
    }
    org.assertj.core.api.Assertions.assertThat(totals.reads).as("reads checked").isPositive();
    org.assertj.core.api.Assertions.assertThat(totals.killed).as("processes killed").isNotEmpty();
  }

  interface Progress {
    void round(int round, Totals totals);
  }

  static Totals run(int rounds, long seed, Path dir, Progress progress) throws Exception {
    return run(
        Shape.ROLES,
        rounds,
        0,
        Long.MAX_VALUE,
        seed,
        dir,
        roundDir -> roundDir.resolve("t").toString(),
        progress);
  }

  /**
   * Runs rounds of {@code shape}, each on a new table at {@code location(round directory)} ({@link
   * TableProcess#open}: a root directory, a lock-free table on local files, or a URI), until {@code
   * rounds} ran, or {@code commits} appends were acknowledged (when positive), or {@code maxMillis}
   * passed (the round under way ends first).
   */
  static Totals run(
      Shape shape,
      int rounds,
      long commits,
      long maxMillis,
      long seed,
      Path dir,
      java.util.function.Function<Path, String> location,
      Progress progress)
      throws Exception {
    Totals totals = new Totals();
    Random random = new Random(seed);
    long start = System.currentTimeMillis();
    for (int r = 0;
        r < rounds
            && (commits <= 0 || totals.acknowledged < commits)
            && System.currentTimeMillis() - start < maxMillis;
        r++) {
      Path roundDir = dir.resolve("round-" + r);
      round(shape, roundDir, location.apply(roundDir), r, random.nextLong(), totals);
      totals.rounds++;
      totals.millis = System.currentTimeMillis() - start;
      if (totals.failures.isEmpty()) {
        deleteTree(roundDir);
      } else {
        Files.write(roundDir.resolve("failures.txt"), totals.failures);
      }
      progress.round(r, totals);
    }
    return totals;
  }

  /** One role's process, started again after each death when its round restarts them. */
  private static final class Child {
    final String role;
    final List<String> extra;
    // Every line of every start, in order; guarded by itself.
    final List<String> lines = new ArrayList<>();
    Process process;
    Thread pump;
    long startedAt;
    int firstLine; // of this start, in lines
    volatile long firstEventAt; // 0 until this start reports its first event
    volatile String lastEvent;
    volatile long lastAckAt;
    long killDelay = -1; // after the first event; -1: this start is not killed
    boolean killed;
    boolean reaped;
    long startToFirstAck = -1;
    long betweenAcks;
    int acksTimed;

    Child(String role, List<String> extra) {
      this.role = role;
      this.extra = extra;
    }
  }

  private static final java.util.regex.Pattern EVENT =
      java.util.regex.Pattern.compile(
          "(ACK|MIGRATED|UNMOVED|CHANGING|CHANGED|OPTIMIZED|UNCOMPACTED|GC|READ|LATEST|ERROR|WRONG)"
              + " .*");

  private static void round(Shape shape, Path dir, String root, int round, long seed, Totals totals)
      throws Exception {
    Files.createDirectories(dir);
    DevicePool pool = TestPool.fourDevices(dir);
    VersionLog log = TableProcess.log(root, java.time.Clock.systemUTC());
    MosaicTable table =
        log == null
            ? MosaicTable.create(
                Path.of(root), pool, CrashWorkload.SCHEMA, CrashWorkload.properties())
            : MosaicTable.create(log, pool, CrashWorkload.SCHEMA, CrashWorkload.properties());
    // Batches from the start, so that the changer and the compactor have rows to work on however
    // slowly the writers' JVMs start.
    Map<Long, Integer> preloaded = new HashMap<>();
    for (int b = 0; b < PRELOADED; b++) {
      preloaded.put(CrashWorkload.append(table, b).version(), b);
    }
    Random random = new Random(seed);
    boolean server = shape.bothReaders() || round % 2 == 1;
    if (server) {
      totals.serverRounds++;
    }
    List<Child> children = new ArrayList<>();
    for (int w = 0; w < shape.writers(); w++) {
      children.add(new Child("writer", List.of()));
    }
    children.add(new Child("migrator", List.of()));
    children.add(new Child("changer", List.of()));
    children.add(new Child("compactor", List.of()));
    children.add(new Child("gc", List.of(Integer.toString(shape.gcPauseMillis()))));
    if (shape.bothReaders()) {
      children.add(new Child("reader", List.of()));
    }
    children.add(new Child("reader", server ? List.of("server") : List.of()));
    children.add(new Child("latest", List.of()));
    String where = "round " + round + " (" + dir + ")";
    long t0 = System.currentTimeMillis();
    long end = t0 + shape.runMillis();
    int[] writerStarts = {0};
    for (Child c : children) {
      start(c, shape, dir, root, Math.max(1, end - t0), random, writerStarts);
    }
    while (true) {
      boolean running = false;
      long now = System.currentTimeMillis();
      for (Child c : children) {
        if (c.process.isAlive()) {
          running = true;
          if (c.killed) {
            continue; // SIGKILL sent; it is not dead yet
          }
          if (c.killDelay >= 0 && c.firstEventAt > 0 && now >= c.firstEventAt + c.killDelay) {
            c.process.destroyForcibly(); // SIGKILL
            c.killed = true;
            totals.killed.merge(c.role, 1, Integer::sum);
            totals.killedAfter.merge(c.role + "@" + c.lastEvent, 1, Integer::sum);
          } else if (now - c.startedAt > shape.runMillis() + HANG_MILLIS) {
            c.process.destroyForcibly();
            c.killed = true;
            totals.failures.add(where + ": " + c.role + " hung; its output: " + output(c));
          }
          continue;
        }
        if (!c.reaped) {
          reap(c, where, totals);
        }
        // Started again while the round runs, as a crashed server or job is; a start too late to
        // overlap the others is not worth its JVM.
        if (shape.restart() && end - now > 1_000) {
          start(c, shape, dir, root, end - now, random, writerStarts);
          totals.restarts++;
          running = true;
        }
      }
      if (!running) {
        break;
      }
      Thread.sleep(10);
    }
    for (Child c : children) {
      if (!c.reaped) {
        reap(c, where, totals);
      }
    }
    check(table, dir, root, pool, children, preloaded, where, totals);
  }

  /** Batches {@code 0 .. PRELOADED-1} are in each round's table before its processes start. */
  private static final int PRELOADED = 3;

  private static void start(
      Child c,
      Shape shape,
      Path dir,
      String root,
      long runMillis,
      Random random,
      int[] writerStarts)
      throws IOException {
    List<String> args = new ArrayList<>();
    args.add(dir.resolve("devices.toml").toString());
    args.add(root);
    args.add(c.role);
    args.add(Long.toString(random.nextLong()));
    args.add(Long.toString(runMillis));
    if (c.role.equals("writer") || c.role.equals("changer")) {
      // Each start of a writer or changer has batch numbers of its own
      // (TableProcess.BATCHES_PER_WRITER).
      args.add(Integer.toString(PRELOADED + writerStarts[0]++ * TableProcess.BATCHES_PER_WRITER));
      args.add(Integer.toString(shape.writerPauseMillis()));
    }
    args.addAll(c.extra);
    c.killDelay =
        random.nextDouble() < shape.killChance() ? random.nextLong(shape.killWindowMillis()) : -1;
    c.killed = false;
    c.reaped = false;
    c.firstEventAt = 0;
    c.lastEvent = "start";
    c.lastAckAt = 0;
    synchronized (c.lines) {
      c.firstLine = c.lines.size();
    }
    c.startedAt = System.currentTimeMillis();
    Process p = ChildJvm.start(TableProcess.class, args);
    c.process = p;
    c.pump = new Thread(() -> pump(c, p), "pump-" + c.role);
    c.pump.start();
  }

  /** After a start ended: its exit, if nobody killed it, must be clean. */
  private static void reap(Child c, String where, Totals totals) throws InterruptedException {
    c.process.waitFor();
    c.pump.join(10_000);
    c.reaped = true;
    if (!c.killed && c.process.exitValue() != 0) {
      totals.failures.add(where + ": " + c.role + " failed: " + output(c));
      if (c.role.equals("reader") || c.role.equals("latest")) {
        scanFailed(String.join("\n", output(c)), totals);
      }
    }
    if (c.startToFirstAck >= 0) {
      totals.writerStarts++;
      totals.startToFirstAckMillis += c.startToFirstAck;
      totals.commitsTimed += c.acksTimed;
      totals.betweenAcksMillis += c.betweenAcks;
    }
    c.startToFirstAck = -1;
    c.acksTimed = 0;
    c.betweenAcks = 0;
  }

  private static List<String> output(Child c) {
    synchronized (c.lines) {
      return new ArrayList<>(c.lines.subList(c.firstLine, c.lines.size()));
    }
  }

  private static void pump(Child c, Process p) {
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        synchronized (c.lines) {
          c.lines.add(line);
        }
        if (EVENT.matcher(line).matches()) {
          long now = System.currentTimeMillis();
          c.lastEvent = line.substring(0, line.indexOf(' '));
          if (c.firstEventAt == 0) {
            c.firstEventAt = now;
          }
          if (line.startsWith("ACK ")) {
            if (c.lastAckAt == 0) {
              c.startToFirstAck = now - c.startedAt;
            } else {
              c.betweenAcks += now - c.lastAckAt;
              c.acksTimed++;
            }
            c.lastAckAt = now;
          }
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
      Map<Long, Integer> preloaded,
      String where,
      Totals totals)
      throws IOException {
    // version -> batch appended (or inserted)
    Map<Long, Integer> acked = new HashMap<>(preloaded);
    Map<Integer, Long> deletedAt = new HashMap<>(); // batch -> version of its acknowledged delete
    // batch -> the lowest version a change deleting it read: it may have committed above that
    // version unannounced, when killed between its publish and its acknowledgement.
    Map<Integer, Long> deleting = new HashMap<>();
    Map<Long, String> winners = new HashMap<>(); // version -> the acknowledgement naming it
    Set<Long> contested = new HashSet<>();
    Map<Long, Set<Integer>> reads = new HashMap<>();
    List<String> readLines = new ArrayList<>();
    for (Child c : children) {
      List<String> lines;
      synchronized (c.lines) {
        lines = new ArrayList<>(c.lines);
      }
      for (String line : lines) {
        String[] f = line.split(" ");
        switch (f[0]) {
          case "ACK", "MIGRATED", "CHANGED", "OPTIMIZED" -> {
            long version = Long.parseLong(f[1]);
            String other = winners.put(version, line);
            if (other != null) {
              totals.versionsWithTwoWinners++;
              totals.failures.add(
                  where + ": two winners of v" + version + ": " + other + ", " + line);
            }
            String lost = f[f.length - 1];
            if (!lost.equals("-")) {
              List<Long> versions = parseSet(lost).stream().map(Long::valueOf).toList();
              contested.addAll(versions);
              totals.lostRaces += versions.size();
              totals.commitsThatLost++;
            }
            switch (f[0]) {
              case "ACK" -> acked.put(version, Integer.parseInt(f[2]));
              case "CHANGED" -> {
                totals.changes++;
                deletedAt.put(Integer.parseInt(f[2]), version);
                if (!f[3].equals("-")) {
                  acked.put(version, Integer.parseInt(f[3]));
                }
              }
              case "OPTIMIZED" -> totals.compactions++;
              default -> totals.migrations++;
            }
          }
          case "CHANGING" ->
              deleting.merge(Integer.parseInt(f[2]), Long.parseLong(f[1]), Math::min);
          case "GC" -> {
            totals.gcPassesDeletingVersions += Integer.parseInt(f[1]) > 0 ? 1 : 0;
            totals.gcPassesDeletingFiles += Integer.parseInt(f[2]) > 0 ? 1 : 0;
          }
          case "READ" -> readLines.add(line);
          case "LATEST" -> totals.latestReads += Long.parseLong(f[1]);
          case "WRONG" -> {
            totals.wrongReads++;
            totals.failures.add(where + ": " + c.role + ": " + line);
          }
          case "ERROR" -> {
            totals.errors.merge(c.role + ": " + kind(line), 1, Integer::sum);
            totals.firstErrors.putIfAbsent(c.role + ": " + kind(line), line);
            if (c.role.equals("reader") || c.role.equals("latest")) {
              // A pinned version's files are never deleted, and the latest version is never
              // retired: a reader has no reason to fail.
              scanFailed(line, totals);
              totals.failures.add(where + ": reader: " + line);
            }
          }
          default -> {}
        }
      }
    }
    totals.contestedVersions += contested.size();
    totals.acknowledged += acked.size() - preloaded.size();
    if (System.getenv("MOSAIC_HARNESS_DEBUG") != null) {
      children.forEach(c -> System.out.println(c.role + ": " + c.lines));
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
      String wrong = TableProcess.check(scan, latest.liveRowCount());
      if (wrong != null) {
        totals.failures.add(where + ": latest v" + latest.version() + ": " + wrong);
        return;
      }
      finalBatches = lastBatches();
    } catch (RuntimeException e) {
      totals.failures.add(where + ": latest v" + latest.version() + " unreadable: " + e);
      return;
    }
    for (Map.Entry<Integer, Long> d : deletedAt.entrySet()) {
      if (finalBatches.contains(d.getKey())) {
        totals.deletedRowsShown++;
        totals.failures.add(
            where + ": batch " + d.getKey() + " deleted at v" + d.getValue() + " is in the latest");
      }
    }
    for (Map.Entry<Long, Integer> a : acked.entrySet()) {
      if (!finalBatches.contains(a.getValue()) && !deleting.containsKey(a.getValue())) {
        totals.lostAcknowledged++;
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
        // A change that read a version below v may have deleted the batch by v.
        if (a.getKey() <= v
            && !batches.contains(a.getValue())
            && deleting.getOrDefault(a.getValue(), Long.MAX_VALUE) >= v) {
          totals.failures.add(where + ": v" + v + " read without batch " + a.getValue());
        }
      }
      for (Map.Entry<Integer, Long> d : deletedAt.entrySet()) {
        if (d.getValue() <= v && batches.contains(d.getKey())) {
          totals.deletedRowsShown++;
          totals.failures.add(
              where + ": v" + v + " read batch " + d.getKey() + " deleted at v" + d.getValue());
        }
      }
      if (!batches.stream().allMatch(b -> finalBatches.contains(b) || deleting.containsKey(b))) {
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

  /** Counts a reader's failure, and whether it was a file missing under a version it read. */
  private static void scanFailed(String what, Totals totals) {
    totals.scansFailing++;
    if (what.contains("NoSuchFile") || what.contains("missing") || what.contains("not found")) {
      totals.scansMissingAFile++;
    }
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
