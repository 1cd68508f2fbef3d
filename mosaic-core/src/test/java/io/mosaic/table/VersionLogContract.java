package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.storage.CountingStorage;
import io.mosaic.storage.Storage;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The lock-free commit protocol ({@link VersionLog}, {@link Lease}, {@link RetentionGc}) on one
 * backend: each backend's test gives its storage (docs/format.md, "Commits without POSIX locks"). A
 * version's content here is the keys of its files, one per line.
 */
public abstract class VersionLogContract {
  static final Retention RETENTION =
      new Retention(
          Duration.ofMinutes(10),
          Duration.ofMinutes(30),
          Duration.ofMinutes(10),
          Duration.ofMinutes(1),
          Duration.ofSeconds(5));

  /** A fresh, empty folder on the backend. */
  protected abstract Storage storage() throws Exception;

  protected abstract String backend();

  /** Commits each of the four racing writers makes: fewer where each takes longer. */
  protected int commitsPerWriter() {
    return 25;
  }

  /** The backend's own count of its calls by kind (HDFS: client RPCs), where it keeps one. */
  protected java.util.Map<String, Long> backendCounts(Storage storage) {
    return java.util.Map.of();
  }

  private static java.util.Map<String, Long> minus(
      java.util.Map<String, Long> after, java.util.Map<String, Long> before) {
    java.util.Map<String, Long> d = new java.util.TreeMap<>();
    after.forEach(
        (k, v) -> {
          long x = v - before.getOrDefault(k, 0L);
          if (x != 0) {
            d.put(k, x);
          }
        });
    return d;
  }

  static byte[] lines(Collection<String> keys) {
    return (String.join("\n", keys) + "\n").getBytes(StandardCharsets.UTF_8);
  }

  static List<String> files(byte[] content) {
    String text = new String(content, StandardCharsets.UTF_8);
    return text.isBlank() ? List.of() : Arrays.asList(text.strip().split("\n"));
  }

  static byte[] append(VersionLog.Version base, String key) {
    List<String> keys = new ArrayList<>(files(base.content()));
    keys.add(key);
    return lines(keys);
  }

  static void write(Storage storage, String key) throws Exception {
    try (OutputStream out = storage.create(key)) {
      out.write(key.getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void racingWritersEachPublishOnceAndLoseNothing() throws Exception {
    Storage storage = storage();
    ShiftedClock clock = new ShiftedClock();
    VersionLog log = new VersionLog(storage, "t", "t", RETENTION, clock);
    log.create(lines(List.of()));
    int writers = 4;
    int commits = commitsPerWriter();
    Set<Long> won = ConcurrentHashMap.newKeySet();
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<Future<Integer>> lost = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      String id = "w" + w;
      lost.add(
          pool.submit(
              () -> {
                int races = 0;
                try (Lease lease =
                    Lease.acquire(storage, "t/" + Lease.WRITERS + "/" + id, RETENTION, clock)) {
                  for (int i = 0; i < commits; i++) {
                    String key = "t/data/" + id + "-" + i;
                    write(storage, key);
                    VersionLog.Published p =
                        log.commit(log.latest(), b -> append(b, key), List.of(key), lease);
                    assertThat(won.add(p.version().number())).as("version won twice").isTrue();
                    races += p.lost().size();
                  }
                }
                return races;
              }));
    }
    int races = 0;
    for (Future<Integer> f : lost) {
      races += f.get();
    }
    pool.shutdown();
    VersionLog.Version latest = log.latest();
    assertThat(latest.number()).isEqualTo(1 + writers * commits);
    assertThat(new HashSet<>(files(latest.content()))).hasSize(writers * commits);
    assertThat(won).hasSize(writers * commits);
    System.out.println(backend() + ": " + writers * commits + " commits lost " + races + " races");
  }

  @Test
  void publishingAndFindingTheLatestTakeFewOperationsAndNoListing() throws Exception {
    Storage backend = storage();
    CountingStorage storage = new CountingStorage(backend);
    VersionLog log = new VersionLog(storage, "t", "t", RETENTION, new ShiftedClock());
    log.create(lines(List.of()));
    Lease lease =
        Lease.acquire(storage, "t/" + Lease.WRITERS + "/w", RETENTION, new ShiftedClock());
    int n = 20;
    long publish = 0;
    long check = 0;
    long latestOps = 0;
    java.util.Map<String, Long> latestCalls = new java.util.TreeMap<>();
    java.util.Map<String, Long> commitCalls = new java.util.TreeMap<>();
    for (int i = 0; i < n; i++) {
      String key = "t/data/w-" + i;
      write(storage, key);
      storage.reset();
      java.util.Map<String, Long> before = backendCounts(backend);
      VersionLog.Version base = log.latest();
      java.util.Map<String, Long> between = backendCounts(backend);
      minus(between, before).forEach((k, v) -> latestCalls.merge(k, v, Long::sum));
      latestOps += storage.total();
      assertThat(storage.count("list")).as("listings to find the latest").isZero();
      storage.reset();
      log.commit(base, b -> append(b, key), List.of(key), lease);
      minus(backendCounts(backend), between).forEach((k, v) -> commitCalls.merge(k, v, Long::sum));
      check += storage.count("stat");
      publish += storage.count("createExclusive") + storage.count("replace");
      assertThat(storage.count("list")).isZero();
    }
    System.out.printf(
        "%s: per commit of one segment, publish %.2f (createExclusive + hint replace every %d),"
            + " segment check %.2f stat, find latest %.2f metadata operations%n",
        backend(),
        publish / (double) n,
        VersionLog.HINT_EVERY,
        check / (double) n,
        latestOps / (double) n);
    if (!latestCalls.isEmpty()) {
      System.out.println(
          backend() + ": its own calls over " + n + " finds of the latest: " + latestCalls);
      System.out.println(backend() + ": its own calls over " + n + " commits: " + commitCalls);
      assertThat(latestCalls.keySet()).as("no listing").noneMatch(k -> k.contains("list"));
    }
    assertThat(publish / (double) n).isLessThanOrEqualTo(3);
    assertThat((publish + check) / (double) n).isLessThanOrEqualTo(3);
    // open the hint, stat up to HINT_EVERY names after it, open the latest
    assertThat(latestOps / (double) n).isLessThanOrEqualTo(3 + (VersionLog.HINT_EVERY - 1) / 2.0);
  }

  @Test
  void gcRetiresByTimeKeepsNamesAndRefusesAStaleBase() throws Exception {
    Storage storage = storage();
    ShiftedClock clock = new ShiftedClock();
    VersionLog log = new VersionLog(storage, "t", "t", RETENTION, clock);
    RetentionGc gc = new RetentionGc(log, VersionLogContract::files, List.of("t/data"), clock);
    log.create(lines(List.of()));
    Lease writer = Lease.acquire(storage, "t/" + Lease.WRITERS + "/w", RETENTION, clock);
    write(storage, "t/data/w-0");
    log.commit(log.latest(), b -> append(b, "t/data/w-0"), List.of("t/data/w-0"), writer);
    VersionLog.Version stale = log.latest(); // v2
    // v3 drops w-0 (a migration's swap): w-0 stays while v2 is inside the retention
    write(storage, "t/data/w-1");
    log.commit(stale, b -> lines(List.of("t/data/w-1")), List.of("t/data/w-1"), writer);
    writer.close();
    log.release("w"); // as WriterLock.close ends its commits' claim
    assertThat(gc.collect().files()).isZero();
    assertThat(storage.stat("t/data/w-0")).isPresent();

    // A reader lease keeps v2 past the version retention.
    Lease reader = log.pin(2);
    long step = RETENTION.lease().toMillis() / 2 - 5_000;
    for (long aged = 0;
        aged < RETENTION.versions().toMillis() + 2 * RETENTION.skew().toMillis();
        aged += step) {
      clock.advance(step);
      reader.ensureLive(); // a long query renews its lease
    }
    RetentionGc.Report held = gc.collect();
    assertThat(held.retired()).as("v1 retired, v2 held by its reader").isEqualTo(1);
    assertThat(storage.stat("t/data/w-0")).isPresent();
    assertThat(log.read(1)).as("v1 is a tombstone").isEmpty();
    reader.close();
    RetentionGc.Report released = gc.collect();
    assertThat(released.retired()).isEqualTo(1);
    assertThat(released.files()).isEqualTo(1);
    assertThat(storage.stat("t/data/w-0")).isEmpty();
    assertThat(storage.stat("t/data/w-1")).isPresent();
    assertThat(log.latest().number()).isEqualTo(3);

    // Tombstones outlive a base that old: the stale base is refused, not published as v3 again.
    // Their age is told by the retiring gc's clock, so one skew more is waited.
    clock.advance(RETENTION.tombstones().toMillis() + RETENTION.skew().toMillis());
    assertThatThrownBy(() -> log.commit(stale, b -> b.content(), List.of(), null))
        .isInstanceOf(TableConflictException.class)
        .hasMessageContaining("table t")
        .hasMessageContaining("version 2")
        .hasMessageContaining("read the latest version and apply the change again")
        .extracting(e -> ((MosaicException) e).kind())
        .isEqualTo(MosaicException.Kind.CONFLICT);
    RetentionGc.Report old = gc.collect();
    assertThat(old.tombstonesDeleted()).isEqualTo(2);
    assertThat(storage.stat(log.key(2))).isEmpty();
    assertThat(log.latest().number()).as("found from the hint, below it nothing").isEqualTo(3);
  }

  @Test
  void leasesDecideWhichUnreferencedFilesAreGarbage() throws Exception {
    Storage storage = storage();
    ShiftedClock clock = new ShiftedClock();
    VersionLog log = new VersionLog(storage, "t", "t", RETENTION, clock);
    RetentionGc gc = new RetentionGc(log, VersionLogContract::files, List.of("t/data"), clock);
    log.create(lines(List.of()));
    Lease live = Lease.acquire(storage, "t/" + Lease.WRITERS + "/live", RETENTION, clock);
    Lease dead = Lease.acquire(storage, "t/" + Lease.WRITERS + "/dead", RETENTION, clock);
    write(storage, "t/data/live-0");
    write(storage, "t/data/dead-0");
    write(storage, "t/data/none-0");
    clock.advance(RETENTION.lease().toMillis() / 2 + 1000);
    live.ensureLive(); // renewed; "dead" stops renewing
    clock.advance(RETENTION.lease().toMillis() / 2 + RETENTION.skew().toMillis());
    assertThat(gc.collect().files()).as("the dead writer's file").isEqualTo(1);
    assertThat(storage.stat("t/data/dead-0")).isEmpty();
    assertThat(storage.stat("t/data/live-0")).isPresent();
    assertThat(storage.stat("t/data/none-0")).as("no lease: kept for the grace").isPresent();
    // An expired lease is never renewed: its files may be gone.
    assertThatThrownBy(dead::ensureLive)
        .isInstanceOf(TableConflictException.class)
        .hasMessageContaining("expired");
    assertThatThrownBy(
            () ->
                log.commit(
                    log.latest(), b -> append(b, "t/data/dead-0"), List.of("t/data/dead-0"), null))
        .isInstanceOf(TableConflictException.class)
        .hasMessageContaining("gc took writer dead for dead");
    clock.advance(RETENTION.grace().toMillis() + RETENTION.skew().toMillis());
    RetentionGc.Report late = gc.collect();
    assertThat(storage.stat("t/data/none-0")).isEmpty();
    assertThat(late.leases()).as("the dead writer's lease, past the grace").isEqualTo(1);
  }

  /**
   * A commit that pauses between its checks and its publish for longer than its writer's lease (and
   * the skew) meets gc taking the writer for dead. The writer claim decides between the two: the
   * commit claimed first, so gc keeps the file and the version that names it is whole; a writer gc
   * claimed first is refused, with nothing published.
   */
  @Test
  void aCommitPausedPastItsLeaseAndGcNeverBothWin() throws Exception {
    CountingStorage storage = new CountingStorage(storage());
    ShiftedClock clock = new ShiftedClock();
    VersionLog log = new VersionLog(storage, "t", "t", RETENTION, clock);
    RetentionGc gc = new RetentionGc(log, VersionLogContract::files, List.of("t/data"), clock);
    log.create(lines(List.of()));
    Lease slow = Lease.acquire(storage, "t/" + Lease.WRITERS + "/slow", RETENTION, clock);
    write(storage, "t/data/slow-0");
    List<RetentionGc.Report> during = new ArrayList<>();
    storage.beforeCreateExclusive(
        key -> {
          if (key.equals(log.key(2)) && during.isEmpty()) {
            clock.advance(RETENTION.lease().toMillis() + 2 * RETENTION.skew().toMillis());
            try {
              during.add(gc.collect());
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          }
        });
    log.commit(log.latest(), b -> append(b, "t/data/slow-0"), List.of("t/data/slow-0"), slow);
    storage.beforeCreateExclusive(key -> {});
    assertThat(during).hasSize(1);
    assertThat(during.get(0).files()).as("gc kept the claimed writer's file").isZero();
    assertThat(files(log.latest().content())).containsExactly("t/data/slow-0");
    assertThat(storage.stat("t/data/slow-0")).as("the published version is whole").isPresent();

    Lease late = Lease.acquire(storage, "t/" + Lease.WRITERS + "/late", RETENTION, clock);
    write(storage, "t/data/late-0");
    clock.advance(RETENTION.lease().toMillis() + 2 * RETENTION.skew().toMillis());
    assertThat(gc.collect().files()).as("gc claimed the dead writer first").isEqualTo(1);
    assertThatThrownBy(
            () ->
                log.commit(
                    log.latest(), b -> append(b, "t/data/late-0"), List.of("t/data/late-0"), null))
        .isInstanceOf(TableConflictException.class)
        .hasMessageContaining("gc took writer late for dead")
        .hasMessageContaining("write them again");
    assertThat(log.latest().number()).as("nothing published").isEqualTo(2);
    late.close();
    log.release("late");
    assertThat(storage.stat(WriterClaims.key(log, "late")))
        .as("closing a writer ends a commit's claim, never gc's")
        .isPresent();

    // Claims go with the tombstone retention; then the claimed writer's leftovers are garbage too.
    clock.advance(RETENTION.tombstones().toMillis() + 2 * RETENTION.skew().toMillis());
    gc.collect();
    assertThat(storage.list("t/" + WriterClaims.CLAIMS)).isEmpty();
  }

  @Test
  void aLostOrStaleHintCostsAListingNotAWrongAnswer() throws Exception {
    Storage storage = storage();
    ShiftedClock clock = new ShiftedClock();
    VersionLog log = new VersionLog(storage, "t", "t", RETENTION, clock);
    log.create(lines(List.of()));
    for (int i = 0; i < 5; i++) {
      log.commit(log.latest(), b -> b.content(), List.of(), null);
    }
    storage.delete("t/" + VersionLog.MANIFESTS + "/" + VersionLog.HINT);
    assertThat(log.latest().number()).isEqualTo(6);
    log.writeHint(2); // a late writer's old hint
    assertThat(log.latest().number()).isEqualTo(6);
    // Retire and delete v1..v5 (all past every retention), then put back a hint naming v2.
    clock.advance(RETENTION.versions().toMillis() + RETENTION.tombstones().toMillis() * 3);
    new RetentionGc(log, VersionLogContract::files, List.of(), clock).collect();
    clock.advance(RETENTION.tombstones().toMillis() * 2);
    new RetentionGc(log, VersionLogContract::files, List.of(), clock).collect();
    assertThat(storage.stat(log.key(2))).isEmpty();
    log.writeHint(2);
    assertThat(log.latest().number()).isEqualTo(6);
  }
}
