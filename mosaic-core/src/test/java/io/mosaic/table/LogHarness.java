package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.storage.Storage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The randomized multi-process harness of the lock-free commit protocol (docs/format.md, "Commits
 * without POSIX locks"): four writer JVMs append contested commits to one {@link VersionLog}, a
 * migrator rewrites referenced segments and commits the swaps, two gc JVMs collect every second
 * with no lock between them, and two readers find the latest version and open every file it names.
 * Processes are killed with SIGKILL at random moments and at named kill points ({@link
 * CrashPoints}), and started again.
 *
 * <p>At the end: every acknowledged commit is in the latest version, no two acknowledgements name
 * one version (one winner each), every acknowledged version still readable holds its commit, no
 * reader met a missing file within the retention or wrong records, and gc, run past every
 * retention, leaves exactly the latest version's files.
 */
public final class LogHarness {
  /**
   * How much slower than local files the backend is: the times below, and the pace of random kills,
   * are multiplied by it ({@code -Dmosaic.logharness.scale}, passed to the children).
   */
  static final int SCALE = Integer.getInteger("mosaic.logharness.scale", 1);

  /**
   * Echo every child's output, prefixed by its role, index and the clock's last five digits of
   * milliseconds, to see where a slow backend spends a run ({@code -Dmosaic.logharness.verbose}).
   */
  static final boolean VERBOSE = Boolean.getBoolean("mosaic.logharness.verbose");

  /** Short times, so that retention, tombstones and leases all come into play within seconds. */
  static final Retention RETENTION =
      new Retention(
          Duration.ofSeconds(3L * SCALE),
          Duration.ofSeconds(8L * SCALE),
          Duration.ofSeconds(5L * SCALE),
          Duration.ofSeconds(4L * SCALE),
          Duration.ofSeconds(1L * SCALE));

  private static final Map<String, List<String>> POINTS =
      Map.of(
          "writer",
          List.of(
              "segment-written",
              "log-before-publish",
              "log-lost-race",
              "log-published",
              "acked",
              "lease-renewed"),
          "migrator",
          List.of("segment-rewritten", "log-before-publish", "log-published", "log-lost-race"),
          "gc",
          List.of("gc-mid-tombstone", "gc-mid-delete"),
          "reader",
          List.of());
  static final Set<String> NAMED_POINTS =
      POINTS.values().stream().flatMap(List::stream).collect(java.util.stream.Collectors.toSet());
  private static final List<String> ROLES =
      List.of("writer", "writer", "writer", "writer", "migrator", "gc", "gc", "reader", "reader");

  private LogHarness() {}

  /** What a run did. */
  public record Totals(
      long commits,
      long swaps,
      long contestedVersions,
      long lostRaces,
      long commitsThatLost,
      long reads,
      long pinnedReads,
      long late,
      long gcPasses,
      long randomKills,
      Map<String, Long> pointKills,
      long restarts,
      long millis,
      List<String> failures) {}

  private interface Launch {
    void start(Child c) throws IOException;
  }

  /**
   * What a run must reach before it stops, and the {@code maxMillis} it may take: {@code commits}
   * acknowledged appends, a contest, a read checked and kills at {@code pointKinds} kinds of named
   * points, after {@code minMillis}. The run stops as soon as all of it holds, so a loaded machine
   * makes it longer rather than failing it on coverage; a run out of time fails on coverage.
   */
  record Goal(long commits, int pointKinds, boolean swaps, long minMillis, long maxMillis) {
    /**
     * CI's short run; above 1,000 commits a long one, which also needs every named point and a
     * committed migration, and no minimum time.
     */
    static Goal of(long commits, int pointKinds, long minMillis, long maxMillis) {
      return commits > 1000
          ? new Goal(commits, NAMED_POINTS.size(), true, 0, maxMillis)
          : new Goal(commits, pointKinds, false, minMillis, maxMillis);
    }

    boolean reached(
        long appends, long swapsDone, boolean contested, long reads, Map<String, Long> kills) {
      return appends >= commits
          && (swapsDone > 0 || !swaps)
          && (contested || kills.containsKey("log-lost-race"))
          && reads > 0
          && kills.size() >= pointKinds;
    }
  }

  /** What every run must show: its promises kept, and its {@code goal} reached. */
  static void assertPromisesKept(Totals totals, Goal goal, long seed) {
    assertThat(totals.failures()).as("seed %d: %s", seed, totals).isEmpty();
    assertThat(totals.commits())
        .as("acknowledged appends")
        .isGreaterThanOrEqualTo(goal.commits() / 3);
    // A committer killed at log-lost-race lost a race but acknowledged nothing, so a short run may
    // see its only contests there.
    assertThat(totals.contestedVersions() + totals.pointKills().getOrDefault("log-lost-race", 0L))
        .as("contested versions, acknowledged or killed at log-lost-race")
        .isPositive();
    assertThat(totals.reads()).as("reads checked").isPositive();
    if (goal.swaps()) {
      assertThat(totals.swaps()).as("migrations committed").isPositive();
    }
    if (goal.pointKinds() >= NAMED_POINTS.size()) {
      assertThat(totals.pointKills().keySet()).containsAll(NAMED_POINTS);
    } else {
      assertThat(totals.pointKills())
          .as("kinds of named kill points")
          .hasSizeGreaterThanOrEqualTo(goal.pointKinds());
    }
  }

  private static final class Child {
    final String role;
    final int index;
    Process process;
    volatile boolean killed;
    final List<String> tail = new CopyOnWriteArrayList<>();
    final List<String> errors = new CopyOnWriteArrayList<>();

    Child(String role, int index) {
      this.role = role;
      this.index = index;
    }
  }

  /**
   * Runs until {@code goal} is reached, or its {@code maxMillis} pass, on the storage at {@code
   * uri} (empty), keeping acknowledgements and output under {@code work}.
   */
  public static Totals run(
      Storage storage,
      String uri,
      List<String> jvmOptions,
      int scale,
      Path work,
      Goal goal,
      long seed)
      throws Exception {
    jvmOptions = new ArrayList<>(jvmOptions);
    jvmOptions.add("-Dmosaic.logharness.scale=" + scale);
    long start = System.currentTimeMillis();
    Random random = new Random(seed);
    Path ackDir = Files.createDirectories(work.resolve("acks"));
    VersionLog log = LogProcess.log(storage, java.time.Clock.systemUTC());
    log.create(VersionLogContract.lines(List.of()));
    List<String> failures = new CopyOnWriteArrayList<>();
    AtomicLong reads = new AtomicLong();
    AtomicLong pinned = new AtomicLong();
    AtomicLong late = new AtomicLong();
    AtomicLong gcs = new AtomicLong();
    Map<String, Long> pointKills = new ConcurrentHashMap<>();
    Map<String, Integer> nextPoint = new HashMap<>();
    long randomKills = 0;
    long restarts = 0;
    List<String> options = jvmOptions;
    Launch launch =
        c ->
            start(
                c,
                uri,
                options,
                ackDir,
                random,
                nextPoint,
                failures,
                reads,
                pinned,
                late,
                gcs,
                pointKills);
    List<Child> children = new ArrayList<>();
    for (int i = 0; i < ROLES.size(); i++) {
      Child c = new Child(ROLES.get(i), i);
      children.add(c);
      launch.start(c);
    }
    Acks acks = new Acks(ackDir);
    long nextKill = System.currentTimeMillis() + scale * (1000L + random.nextInt(2000));
    try {
      while (System.currentTimeMillis() - start < goal.maxMillis()
          && (System.currentTimeMillis() - start < goal.minMillis()
              || !reached(goal, acks.all(), reads.get(), pointKills))) {
        Thread.sleep(100);
        for (Child c : children) {
          if (!c.process.isAlive()) {
            if (!c.killed) {
              failures.add(
                  c.role + " " + c.index + " exited by itself: " + c.errors + " ... " + c.tail);
            }
            restarts++;
            launch.start(c);
          }
        }
        if (System.currentTimeMillis() > nextKill) {
          Child c = children.get(random.nextInt(children.size()));
          c.killed = true;
          c.process.destroyForcibly();
          randomKills++;
          nextKill = System.currentTimeMillis() + scale * (500L + random.nextInt(2000));
        }
      }
    } finally {
      for (Child c : children) {
        c.killed = true;
        c.process.destroyForcibly();
      }
      for (Child c : children) {
        c.process.waitFor(30, TimeUnit.SECONDS);
      }
    }
    Thread.sleep(200); // the output threads' last lines
    List<Acks.Ack> all = acks.all();
    check(log, all, failures);
    Set<Long> contested = new HashSet<>();
    long lostRaces = 0;
    long commitsThatLost = 0;
    for (Acks.Ack a : all) {
      contested.addAll(a.lost());
      lostRaces += a.lost().size();
      commitsThatLost += a.lost().isEmpty() ? 0 : 1;
    }
    return new Totals(
        all.stream().filter(Acks.Ack::append).count(),
        all.stream().filter(a -> !a.append()).count(),
        contested.size(),
        lostRaces,
        commitsThatLost,
        reads.get(),
        pinned.get(),
        late.get(),
        gcs.get(),
        randomKills,
        new TreeMap<>(pointKills),
        restarts,
        System.currentTimeMillis() - start,
        List.copyOf(failures));
  }

  private static boolean reached(
      Goal goal, List<Acks.Ack> acks, long reads, Map<String, Long> pointKills) {
    return goal.reached(
        acks.stream().filter(Acks.Ack::append).count(),
        acks.stream().filter(a -> !a.append()).count(),
        acks.stream().anyMatch(a -> !a.lost().isEmpty()),
        reads,
        pointKills);
  }

  // With VERBOSE, a child's line prefixed by its role, index and time.
  private static void echo(Child c, String line) {
    if (VERBOSE) {
      System.out.println(
          "[" + c.role + c.index + " " + (System.currentTimeMillis() % 100000) + "] " + line);
    }
  }

  private static void start(
      Child c,
      String uri,
      List<String> jvmOptions,
      Path ackDir,
      Random random,
      Map<String, Integer> nextPoint,
      List<String> failures,
      AtomicLong reads,
      AtomicLong pinned,
      AtomicLong late,
      AtomicLong gcs,
      Map<String, Long> pointKills)
      throws IOException {
    List<String> options = new ArrayList<>(jvmOptions);
    List<String> points = POINTS.get(c.role);
    // Every other start stops at a named point, taking the role's points in turn.
    if (!points.isEmpty() && random.nextBoolean()) {
      int i = nextPoint.merge(c.role, 1, Integer::sum) - 1;
      options.add("-Dmosaic.crash.name=" + points.get(i % points.size()));
      options.add("-Dmosaic.crash.at=" + (1 + random.nextInt(3)));
    }
    c.killed = false;
    c.tail.clear();
    c.errors.clear();
    echo(c, "START");
    c.process =
        new ProcessBuilder(
                ChildJvm.command(
                    options,
                    LogProcess.class,
                    List.of(uri, ackDir.toString(), c.role, Long.toString(random.nextLong()))))
            .redirectErrorStream(true)
            .start();
    Process process = c.process;
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader out =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                  if (c.tail.size() > 20) {
                    c.tail.remove(0);
                  }
                  c.tail.add(line);
                  echo(c, line);
                  if ((line.contains("Exception") || line.startsWith("Caused by"))
                      && c.errors.size() < 10) {
                    c.errors.add(line);
                  }
                  if (line.startsWith("CRASHPOINT ")) {
                    c.killed = true;
                    process.destroyForcibly(); // SIGKILL at the named point
                    pointKills.merge(line.split(" ")[2], 1L, Long::sum);
                  } else if (line.startsWith("MISSING ") || line.startsWith("WRONG ")) {
                    failures.add(c.role + ": " + line);
                  } else if (line.startsWith("READ ")) {
                    reads.incrementAndGet();
                    if (line.endsWith(" pinned")) {
                      pinned.incrementAndGet();
                    }
                  } else if (line.startsWith("LATE ")) {
                    late.incrementAndGet();
                  } else if (line.startsWith("GC ")) {
                    gcs.incrementAndGet();
                  }
                }
              } catch (IOException e) {
                // the process was killed
              }
            });
    reader.setDaemon(true);
    reader.start();
  }

  /** The checks after the run; adds what fails to {@code failures}. */
  private static void check(VersionLog log, List<Acks.Ack> acks, List<String> failures)
      throws IOException {
    Map<Long, Acks.Ack> winners = new HashMap<>();
    for (Acks.Ack a : acks) {
      Acks.Ack other = winners.put(a.version(), a);
      if (other != null) {
        failures.add("two winners of v" + a.version() + ": " + other + " and " + a);
      }
    }
    Storage storage = log.storage();
    for (Acks.Ack a : acks) {
      java.util.Optional<byte[]> content;
      try {
        content = log.read(a.version());
      } catch (TableNotFoundException e) {
        continue; // retired and its tombstone deleted
      }
      if (content.isPresent()) {
        String key = a.append() ? LogProcess.DATA + "/" + a.what().replace(':', '-') : a.what();
        if (!LogProcess.files(content.get()).contains(key)) {
          failures.add("v" + a.version() + " is not the acknowledged commit " + a);
        }
      }
    }
    VersionLog.Version latest = log.latest();
    Set<String> records = new HashSet<>();
    for (String key : LogProcess.files(latest.content())) {
      List<String> segment;
      try {
        segment = LogProcess.readSegment(storage, key);
      } catch (java.nio.file.NoSuchFileException e) {
        failures.add("the latest version v" + latest.number() + " names missing " + key);
        continue;
      }
      if (segment == null) {
        failures.add("segment " + key + " of the latest version is torn");
        continue;
      }
      for (String r : segment) {
        if (!records.add(r)) {
          failures.add("record " + r + " twice in the latest version");
        }
      }
    }
    for (Acks.Ack a : acks) {
      if (a.append() && !records.contains(a.what())) {
        failures.add("lost acknowledged commit " + a);
      }
    }
    // Recovery from every kill: gc past every retention leaves the latest version's files only.
    ShiftedClock clock = new ShiftedClock();
    VersionLog later = LogProcess.log(storage, clock);
    RetentionGc gc = new RetentionGc(later, LogProcess::files, List.of(LogProcess.DATA), clock);
    long day = Duration.ofDays(1).toMillis();
    clock.advance(day);
    gc.collect();
    clock.advance(day);
    gc.collect();
    Set<String> left = new HashSet<>();
    for (Storage.FileStatus f : storage.list(LogProcess.DATA)) {
      left.add(f.key());
    }
    if (!left.equals(new HashSet<>(LogProcess.files(latest.content())))) {
      failures.add(
          "after gc past every retention the data folder holds "
              + left.size()
              + " files, the latest version names "
              + LogProcess.files(latest.content()).size());
    }
    List<String> manifests = new ArrayList<>();
    for (Storage.FileStatus f : storage.list(LogProcess.TABLE + "/" + VersionLog.MANIFESTS)) {
      manifests.add(f.name());
    }
    if (!manifests.equals(List.of(VersionLog.HINT, String.format("v%020d.json", latest.number())))
        && !new HashSet<>(manifests)
            .equals(Set.of(VersionLog.HINT, String.format("v%020d.json", latest.number())))) {
      failures.add("after gc past every retention the manifests are " + manifests);
    }
    if (!storage.list(LogProcess.TABLE + "/" + Lease.WRITERS).isEmpty()) {
      failures.add("writer leases left after gc past every retention");
    }
  }
}
