package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Checksums;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.storage.Storage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Kills {@link CrashWorkload} with SIGKILL at named crash points ({@link CrashPoints}) and at
 * random moments, and checks its table after each kill (DESIGN section 6; docs/format.md, "Garbage
 * and crashes"): the run loop and checks that {@link CrashSafetyTest} (tables with POSIX locks) and
 * the lock-free crash tests share. A {@link Target} says where the table is and what its recovery
 * must show.
 *
 * <p>Properties: {@code -Dmosaic.crash.points=kinds} kills at the first point of each expected
 * name, {@code =all} at every point the workload passes; {@code -Dmosaic.crash.random=N} makes N
 * random kills; {@code -Dmosaic.crash.seed=S} replays the random moments of a printed seed.
 */
final class CrashKills {
  private CrashKills() {}

  /** Where the workload's table is: a fresh table per run, and its checks after a kill. */
  interface Target {
    /** Creates run {@code run}'s table; the workload's arguments (its devices.toml, its table). */
    List<String> create(String run) throws IOException;

    /** The options a child JVM needs to reach the table (the Hadoop settings). */
    List<String> jvmOptions();

    /** Checks run {@code run}'s table after the kill described by {@code what}. */
    void check(String run, String what) throws IOException;
  }

  /**
   * A target whose runs are folders of {@code dir}, each with the four-device test pool ({@link
   * TestPool}) and a table made by {@link #createTable}.
   */
  abstract static class LocalTarget implements Target {
    private final Path dir;

    LocalTarget(Path dir) {
      this.dir = dir;
    }

    /** Creates the table in run folder {@code root} on {@code pool}; the workload's table arg. */
    abstract String createTable(Path root, DevicePool pool) throws IOException;

    /** Checks the table in run folder {@code root} after the kill {@code what}. */
    abstract void check(Path root, String what) throws IOException;

    @Override
    public List<String> create(String run) throws IOException {
      Path root = Files.createDirectories(dir.resolve(run));
      String table = createTable(root, TestPool.fourDevices(root));
      return List.of(root.resolve("devices.toml").toString(), table);
    }

    @Override
    public List<String> jvmOptions() {
      return List.of();
    }

    @Override
    public void check(String run, String what) throws IOException {
      check(dir.resolve(run), what);
    }
  }

  /**
   * A run of the workload: the points it passed (when it finished), the point it was killed at,
   * whether a random kill ended it, and its time from {@link CrashWorkload#STARTED} to its end.
   */
  record Run(int points, String crashPoint, boolean killedAtRandom, long millis) {}

  /** What a sweep killed: at named points (by name) and at random moments (before the end). */
  record Sweep(
      int named, Set<String> names, long window, int random, int randomBeforeEnd, long seed) {}

  /** The rows of every batch the workload appends, in order: a committed prefix is checked. */
  static List<List<List<Object>>> batches() {
    List<List<List<Object>>> batches = new ArrayList<>();
    for (int b = 0; b < CrashWorkload.BATCHES; b++) {
      batches.add(CrashWorkload.rows(b));
    }
    return batches;
  }

  /**
   * Runs the workload in a new JVM on a fresh table of {@code target}; with {@code killAfterMillis
   * >= 0}, SIGKILLs it that long after it started; with {@code -Dmosaic.crash.at} among {@code
   * options}, at that crash point.
   */
  static Run run(Target target, String name, List<String> options, long killAfterMillis)
      throws Exception {
    List<String> args = target.create(name);
    List<String> jvm = new ArrayList<>(target.jvmOptions());
    jvm.addAll(options);
    Process process =
        new ProcessBuilder(ChildJvm.command(jvm, CrashWorkload.class, args))
            .redirectErrorStream(true)
            .start();
    AtomicBoolean killed = new AtomicBoolean();
    String crashPoint = null;
    int points = 0;
    long started = System.nanoTime();
    List<String> output = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        output.add(line);
        if (line.equals(CrashWorkload.STARTED)) {
          started = System.nanoTime();
          if (killAfterMillis >= 0) {
            Thread killer = new Thread(() -> killAfter(process, killAfterMillis, killed));
            killer.setDaemon(true);
            killer.start();
          }
        } else if (line.startsWith("CRASHPOINT ")) {
          crashPoint = line.split(" ")[2];
          process.destroyForcibly(); // SIGKILL: no shutdown hooks, no finally blocks
          break;
        } else if (line.startsWith("DONE ")) {
          points = Integer.parseInt(line.substring(5).trim());
        }
      }
    }
    long millis = (System.nanoTime() - started) / 1_000_000;
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("workload did not end: " + output);
    }
    if (crashPoint == null && !killed.get() && process.exitValue() != 0) {
      throw new AssertionError("workload failed: " + String.join("\n", output));
    }
    return new Run(points, crashPoint, killed.get(), millis);
  }

  private static void killAfter(Process process, long millis, AtomicBoolean killed) {
    try {
      if (!process.waitFor(millis, TimeUnit.MILLISECONDS)) {
        killed.set(true);
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Kills the workload at its {@code at}-th crash point, counting only points named {@code only}
   * when it is not null, and checks the table.
   */
  static Run killAt(Target target, int at, String only) throws Exception {
    String name = "kill-" + (only == null ? "" : only + "-") + at;
    List<String> options = new ArrayList<>();
    options.add("-Dmosaic.crash.at=" + at);
    if (only != null) {
      options.add("-Dmosaic.crash.name=" + only);
    }
    long start = System.nanoTime();
    Run run = run(target, name, options, -1);
    assertThat(run.crashPoint()).as("crash point %s was reached", name).isNotNull();
    long killed = System.nanoTime();
    target.check(name, "killed at " + run.crashPoint() + " (" + name + ")");
    System.out.printf(
        Locale.ROOT,
        "%s: killed at %s after %d ms, checked in %d ms%n",
        name,
        run.crashPoint(),
        (killed - start) / 1_000_000,
        (System.nanoTime() - killed) / 1_000_000);
    return run;
  }

  /** Runs the workload once whole, then kills it at each of its points in turn (checking each). */
  static Sweep everyPoint(Target target) throws Exception {
    // -Dmosaic.crash.at=0 counts the points without stopping at any (CrashPoints).
    int points = run(target, "full", List.of("-Dmosaic.crash.at=0"), -1).points();
    assertThat(points).as("crash points in the workload").isPositive();
    Set<String> names = new TreeSet<>();
    long window = 0;
    for (int at = 1; at <= points; at++) {
      Run run = killAt(target, at, null);
      names.add(run.crashPoint());
      window = Math.max(window, run.millis());
    }
    return new Sweep(points, names, window, 0, 0, 0);
  }

  /**
   * The sweep of a backend: by default (CI) the first point of each name in {@code ci}; with {@code
   * -Dmosaic.crash.points=kinds} the first of each of {@code expected}, and with {@code =all} every
   * point the workload passes, asserting each of {@code expected} was reached; then {@code
   * randomKills} kills at random moments ({@code -Dmosaic.crash.random}, seed {@code
   * -Dmosaic.crash.seed}) within the time the workload took to its latest named point. Prints what
   * was killed.
   */
  static Sweep sweep(
      Target target, String backend, Set<String> expected, Set<String> ci, int randomKills)
      throws Exception {
    long start = System.nanoTime();
    Set<String> names = new TreeSet<>();
    int named = 0;
    long window = 0;
    String points = System.getProperty("mosaic.crash.points", "ci");
    if (points.equals("all")) {
      Sweep all = everyPoint(target);
      names.addAll(all.names());
      named = all.named();
      window = all.window();
    } else {
      for (String point : new TreeSet<>(points.equals("kinds") ? expected : ci)) {
        Run run = killAt(target, 1, point);
        names.add(run.crashPoint());
        window = Math.max(window, run.millis());
        named++;
      }
    }
    assertThat(names)
        .as("crash points reached on %s", backend)
        .containsAll(points.equals("ci") ? ci : expected);
    long seed = Long.getLong("mosaic.crash.seed", System.nanoTime());
    int kills = Integer.getInteger("mosaic.crash.random", randomKills);
    System.out.printf(
        Locale.ROOT,
        "random kills on %s: seed %d (-Dmosaic.crash.seed=%d replays), within %d ms%n",
        backend,
        seed,
        seed,
        window);
    Random random = new Random(seed);
    int beforeEnd = 0;
    for (int i = 0; i < kills; i++) {
      long after = random.nextLong(window + 1);
      String name = "random-" + i;
      Run run = run(target, name, List.of(), after);
      beforeEnd += run.killedAtRandom() ? 1 : 0;
      target.check(name, "killed at random " + after + " ms after its start (seed " + seed + ")");
    }
    Sweep sweep = new Sweep(named, names, window, kills, beforeEnd, seed);
    System.out.printf(
        Locale.ROOT,
        "crash kills on %s: %d at named points %s, %d at random (%d before the workload's end),"
            + " every one recovered, in %d s%n",
        backend,
        named,
        names,
        kills,
        beforeEnd,
        (System.nanoTime() - start) / 1_000_000_000);
    return sweep;
  }

  /**
   * Checks that {@code table} holds a prefix of {@code batches}, every row equal and every
   * segment's checksum intact (read through its device); the number of batches.
   */
  static int checkRows(MosaicTable table, List<List<List<Object>>> batches, String what)
      throws IOException {
    Manifest m = table.latest();
    List<List<Object>> expected = new ArrayList<>();
    int committed = 0;
    while (expected.size() < m.rowCount() && committed < batches.size()) {
      expected.addAll(batches.get(committed++));
    }
    assertThat(m.rowCount()).as("%s: rows of v%d", what, m.version()).isEqualTo(expected.size());
    try (BufferAllocator alloc = new RootAllocator()) {
      TableRoundTripTest.assertRowsEqual(table, m, expected, alloc);
    }
    for (SegmentEntry s : m.segments()) {
      assertThat(Checksums.ofFile(table.pool().device(s.device()), s.path()))
          .as("%s: checksum of %s", what, s.path())
          .isEqualTo(s.checksum());
    }
    return committed;
  }

  /** Checks that the segment files on the pool's devices are exactly those {@code m} names. */
  static void checkOnlyReferenced(DevicePool pool, Manifest m, String what) throws IOException {
    Set<String> referenced = new HashSet<>();
    m.segments().forEach(s -> referenced.add(s.device() + ":" + s.path()));
    Set<String> found = new HashSet<>();
    for (Device device : pool.devices()) {
      for (Storage.FileStatus f : device.storage().walk("")) {
        if (f.name().endsWith(".parquet")) {
          found.add(device.id() + ":" + f.key());
        }
      }
    }
    assertThat(found).as("%s: segment files on the devices after gc", what).isEqualTo(referenced);
  }

  /** Appends the next batch to a recovered table: it takes a further commit. */
  static void commitsAgain(MosaicTable table, int committed, String what) throws IOException {
    long before = table.latest().rowCount();
    assertThat(CrashWorkload.append(table, committed).rowCount())
        .as("%s: a further commit", what)
        .isEqualTo(before + CrashWorkload.ROWS);
  }
}
