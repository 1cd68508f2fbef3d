package io.mosaic.table;

import io.mosaic.MosaicException;
import io.mosaic.storage.Storage;
import io.mosaic.storage.StorageKeys;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A table's versions on a storage that has exclusive create and nothing else (docs/format.md,
 * "Commits without POSIX locks"): no locks, hard links or appends, so it serves HDFS and object
 * stores. A version is published by creating {@code _manifests/v<20 digits>.json} exclusively; a
 * retired version's name keeps a tombstone, so no name is used twice; the latest version is found
 * from a hint and a forward probe, without listing. The content of a version is the caller's (a
 * manifest); this class only numbers, publishes, finds and retires it.
 */
public final class VersionLog {
  public static final String MANIFESTS = "_manifests";

  /** The hint: a version number at most the latest one (best effort, replaced after commits). */
  public static final String HINT = "_latest";

  /**
   * Commits write the hint once in this many versions: a commit's publish then costs one exclusive
   * create plus a quarter of a replace, and a probe from the hint at most this many {@code stat}s
   * more (docs/format.md, "Commits without POSIX locks").
   */
  static final int HINT_EVERY = 4;

  /** Largest manifest read (as {@link TableVersions#MAX_MANIFEST_BYTES}). */
  static final long MAX_BYTES = TableVersions.MAX_MANIFEST_BYTES;

  private static final Pattern NAME = Pattern.compile("v(\\d{20})\\.json");
  private static final byte[] TOMBSTONE = "{\"tombstone\":true".getBytes(StandardCharsets.UTF_8);

  private final Storage storage;
  private final String prefix;
  private final String table;
  private final Retention retention;
  private final Clock clock;

  /** The newest version this log read as the latest or published ({@link #recent}). */
  private volatile Version seen;

  /** Claims this process created, by writer: until when (the clock's millis) they stand. */
  private final java.util.Map<String, Long> claimed =
      new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<String, Long> eldest) {
          return size() > 1024; // a driver commits many task writers' segments once each
        }
      };

  /**
   * @param prefix the table's folder on the storage ({@code ""} for its root)
   * @param table the table's name, for messages
   */
  public VersionLog(
      Storage storage, String prefix, String table, Retention retention, Clock clock) {
    this.storage = storage;
    this.prefix = prefix;
    this.table = table;
    this.retention = retention;
    this.clock = clock;
  }

  /** A version's content as read, and when (this process's clock) it was read as the latest. */
  public record Version(long number, byte[] content, long readAtMillis) {}

  /** A published commit: its version, and the versions it lost to other writers first. */
  public record Published(Version version, List<Long> lost) {
    public Published {
      lost = List.copyOf(lost);
    }
  }

  public Storage storage() {
    return storage;
  }

  public String prefix() {
    return prefix;
  }

  public Retention retention() {
    return retention;
  }

  public Clock clock() {
    return clock;
  }

  public String key(long version) {
    return StorageKeys.join(
        prefix, MANIFESTS + "/" + String.format(Locale.ROOT, "v%020d.json", version));
  }

  private String hintKey() {
    return StorageKeys.join(prefix, MANIFESTS + "/" + HINT);
  }

  /** Publishes version 1; a conflict when the table has a version already. */
  public Version create(byte[] content) {
    try {
      storage.createExclusive(key(1), content);
    } catch (FileAlreadyExistsException e) {
      throw new TableConflictException(
          "table " + table + " exists already on " + storage.root() + " (" + key(1) + ")");
    } catch (IOException e) {
      throw MosaicException.io("cannot create table " + table + " on " + storage.root(), e);
    }
    writeHint(1);
    return new Version(1, content, clock.millis());
  }

  /**
   * The latest version, found by reading: from a start {@code s} whose content is known or read,
   * read {@code v<s+1>}, {@code v<s+2>}, ... whole until one is missing (each a GET that a missing
   * key answers with 404: one request per name, no HEAD first), and the last one read is the
   * latest. The start is the newest version this log read or published, while younger than the
   * tombstone retention less the skew (then no name after it can have been deleted: any successor
   * was created after it was read as the latest, and a name is deleted only a tombstone retention
   * after it was retired), else the hint (names from the hint's version up are never deleted: gc
   * deletes only tombstones below the hint it writes). A missing or stale hint whose version is
   * gone falls back to listing once. The latest version is never a tombstone (gc retires only older
   * ones), but it may be retired between the probe and its read: then a newer one exists and the
   * probe runs again.
   */
  public Version latest() {
    boolean list = false;
    long tombstoneAt = -1;
    while (true) {
      long readAt = clock.millis();
      Version known = list ? null : recent(readAt).orElse(null);
      Optional<Long> hint = list || known != null ? Optional.empty() : readHint();
      long from = known != null ? known.number() : hint.isPresent() ? hint.get() : newestListed();
      long last = from;
      byte[] content = known != null ? known.content() : null;
      for (Optional<byte[]> next; (next = readRaw(last + 1)).isPresent(); ) {
        last++;
        content = next.get();
      }
      if (last == from && known == null) {
        Optional<byte[]> own = readRaw(from);
        if (own.isEmpty()) {
          if (hint.isEmpty()) {
            throw new TableNotFoundException(
                "table " + table + " has no version " + from + " (" + key(from) + ")");
          }
          list = true; // the hint names a version gc deleted (a late writer put an old hint back)
          continue;
        }
        content = own.get();
      }
      if (!isTombstone(content)) {
        Version v = new Version(last, content, readAt);
        seen(v);
        return v;
      }
      // Retired after its successor's probe: a newer version exists. The same tombstone twice is
      // a stale hint at a retired version whose successors gc deleted: list.
      list = tombstoneAt == last;
      tombstoneAt = last;
    }
  }

  /**
   * The newest version this log read as the latest or published, while younger than the tombstone
   * retention less the skew: a base a commit may start from without finding the latest first (a
   * newer version only costs a lost race, docs/format.md "Commits without POSIX locks").
   */
  public Optional<Version> recent() {
    return recent(clock.millis());
  }

  private Optional<Version> recent(long now) {
    Version v = seen;
    if (v == null
        || now - v.readAtMillis()
            >= retention.tombstones().toMillis() - retention.skew().toMillis()) {
      return Optional.empty();
    }
    return Optional.of(v);
  }

  private void seen(Version v) {
    synchronized (this) {
      if (seen == null || seen.number() <= v.number()) {
        seen = v;
      }
    }
  }

  private long newestListed() {
    try {
      List<Long> versions = listed();
      if (versions.isEmpty()) {
        throw new TableNotFoundException(
            "table " + table + " has no version on " + storage.root() + " (" + key(1) + ")");
      }
      return versions.get(versions.size() - 1);
    } catch (IOException e) {
      throw MosaicException.io("cannot list the versions of table " + table, e);
    }
  }

  /** A version name's whole content, tombstone or manifest; empty when the name is missing. */
  Optional<byte[]> readRaw(long version) {
    try {
      try {
        return storage.readIfExists(key(version), MAX_BYTES);
      } catch (IOException e) {
        // On HDFS a read racing gc's replace by a tombstone fails ("Blocklist ... has changed");
        // read again, which sees the tombstone.
        return storage.readIfExists(key(version), MAX_BYTES);
      }
    } catch (IOException e) {
      throw MosaicException.io("cannot find the latest version of table " + table, e);
    }
  }

  private Optional<Long> readHint() {
    try {
      Optional<byte[]> bytes = storage.readIfExists(hintKey(), 32);
      if (bytes.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(Long.parseLong(new String(bytes.get(), StandardCharsets.UTF_8).trim()));
    } catch (IOException | NumberFormatException e) {
      // Best effort: on HDFS a read racing a replace of the hint fails ("Blocklist ... has
      // changed"); without the hint the probe starts from a listing.
      return Optional.empty();
    }
  }

  /** Best effort: a lost hint costs a longer probe or one listing, never a wrong answer. */
  void writeHint(long version) {
    try {
      storage.replace(hintKey(), (version + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      // the next commit or gc writes it again
    }
  }

  /**
   * A version's content; empty when gc retired it (a tombstone); NOT_FOUND when the name does not
   * exist.
   */
  public Optional<byte[]> read(long version) {
    byte[] bytes =
        readRaw(version)
            .orElseThrow(
                () ->
                    new TableNotFoundException(
                        "table "
                            + table
                            + " has no version "
                            + version
                            + " ("
                            + key(version)
                            + ")"));
    return isTombstone(bytes) ? Optional.empty() : Optional.of(bytes);
  }

  static boolean isTombstone(byte[] bytes) {
    return bytes.length >= TOMBSTONE.length
        && Arrays.equals(bytes, 0, TOMBSTONE.length, TOMBSTONE, 0, TOMBSTONE.length);
  }

  /**
   * Commits the change {@code apply} makes to a version: publishes {@code apply(base)} as the next
   * version, and when another writer published it first, reads the latest and applies the change
   * again (it may throw a conflict when it cannot be rebased). Before each publish it claims the
   * writers of {@code newFiles} ({@link WriterClaims}) and checks that the files exist: gc deletes
   * the files of a writer whose lease expired, and a commit must never publish a name gc deleted.
   *
   * @throws TableConflictException when {@code base} was read longer ago than the tombstone
   *     retention: the name after it may have been retired and freed since, so publishing it could
   *     reuse a name
   */
  public Published commit(
      Version base, Function<Version, byte[]> apply, Collection<String> newFiles, Lease lease) {
    List<Long> lost = new ArrayList<>();
    for (Version at = base; ; ) {
      long age = clock.millis() - at.readAtMillis();
      if (age > retention.tombstones().toMillis() - retention.skew().toMillis()) {
        throw new TableConflictException(
            "table "
                + table
                + ": the commit is based on version "
                + at.number()
                + ", read "
                + age
                + " ms ago, longer than the tombstone retention ("
                + retention.tombstones()
                + " less the clock skew "
                + retention.skew()
                + "); versions after it may have been retired and their names freed, so it"
                + " cannot be published; read the latest version and apply the change again");
      }
      byte[] next = apply.apply(at);
      if (lease != null) {
        lease.ensureLive();
      }
      for (String file : newFiles) {
        claim(WriterLock.idOf(file.substring(file.lastIndexOf('/') + 1)));
      }
      checkExist(newFiles);
      CrashPoints.reached("log-before-publish");
      long number = at.number() + 1;
      long putAt = clock.millis();
      try {
        storage.createExclusive(key(number), next);
      } catch (FileAlreadyExistsException e) {
        lost.add(number);
        CrashPoints.reached("log-lost-race");
        at = latest();
        continue;
      } catch (IOException e) {
        throw MosaicException.io("cannot publish version " + number + " of table " + table, e);
      }
      CrashPoints.reached("log-published");
      if (number % HINT_EVERY == 0) {
        writeHint(number);
      }
      // As if read when the create began: a successor's name can only be created after it, so none
      // is deleted for a tombstone retention from then.
      Version published = new Version(number, next, putAt);
      seen(published);
      return new Published(new Version(number, next, clock.millis()), lost);
    }
  }

  /**
   * Claims {@code writer}'s segments for a commit ({@link WriterClaims#forCommit}). A claim this
   * process created is not asked again while it is younger than the tombstone retention less twice
   * the skew: gc deletes claims only past that retention, so a writer committing often pays the
   * claim once, not per commit.
   */
  void claim(String writer) {
    long now = clock.millis();
    synchronized (claimed) {
      Long until = claimed.get(writer);
      if (until != null && now < until) {
        return;
      }
    }
    if (WriterClaims.forCommit(this, writer, table)) {
      long valid = retention.tombstones().minus(retention.skew().multipliedBy(2)).toMillis();
      synchronized (claimed) {
        claimed.put(writer, now + valid);
      }
    }
  }

  /**
   * Ends a commit's claim on {@code writer}: when the writer closes, or after a publish for a
   * writer not open here (a task's segments a driver committed). Once its versions are published,
   * the claim only delays the garbage their successors drop. Best effort: a claim left behind ages
   * out.
   */
  void release(String writer) {
    synchronized (claimed) {
      claimed.remove(writer);
    }
    WriterClaims.release(this, writer);
  }

  private void checkExist(Collection<String> files) {
    for (String file : files) {
      try {
        if (!storage.isFile(file)) {
          throw new TableConflictException(
              "table "
                  + table
                  + ": segment "
                  + file
                  + " was deleted before its commit (its writer's lease expired and gc took it"
                  + " for garbage); write it again");
        }
      } catch (IOException e) {
        throw MosaicException.io("cannot check segment " + file + " of table " + table, e);
      }
    }
  }

  /** Replaces version {@code version}'s manifest by a tombstone, atomically (gc only). */
  void retire(long version) throws IOException {
    storage.replace(
        key(version),
        String.format(
                Locale.ROOT,
                "{\"tombstone\":true,\"version\":%d,\"retiredAtMillis\":%d}\n",
                version,
                clock.millis())
            .getBytes(StandardCharsets.UTF_8));
  }

  /** Every version name, manifest or tombstone, ascending (gc only: readers never list). */
  List<Long> listed() throws IOException {
    return new ArrayList<>(listedTimes().keySet());
  }

  /**
   * Every version name with the modification time its listing gives, ascending: one LIST, where a
   * HEAD per name would cost a request each (gc only).
   */
  NavigableMap<Long, Long> listedTimes() throws IOException {
    NavigableMap<Long, Long> versions = new TreeMap<>();
    for (Storage.FileStatus f : storage.list(StorageKeys.join(prefix, MANIFESTS))) {
      Matcher m = NAME.matcher(f.name());
      if (m.matches()) {
        versions.put(Long.parseLong(m.group(1)), f.modifiedMillis());
      }
    }
    return versions;
  }

  /** When a tombstone's content says it was retired, or empty when it does not say. */
  static OptionalLong retiredAt(byte[] tombstone) {
    Matcher m = RETIRED_AT.matcher(new String(tombstone, StandardCharsets.UTF_8));
    return m.find() ? OptionalLong.of(Long.parseLong(m.group(1))) : OptionalLong.empty();
  }

  private static final Pattern RETIRED_AT = Pattern.compile("\"retiredAtMillis\":(\\d+)");

  /**
   * Holds a version beyond the retention for a long query: a reader lease gc honours. Take it
   * within the retention of reading the version as the latest (a version retention keeps that long
   * is still there when gc looks at the leases).
   */
  public Lease pin(long version) {
    return Lease.acquire(
        storage,
        StorageKeys.join(
            prefix,
            Lease.READERS
                + "/"
                + String.format(Locale.ROOT, "v%020d-", version)
                + java.util.UUID.randomUUID()),
        retention,
        clock);
  }

  /** Reads a whole small file, refusing one over {@code max} bytes. */
  static byte[] readSmall(Storage storage, String key, long max) throws IOException {
    try (Storage.ReadFile file = storage.open(key)) {
      long length = file.length();
      if (length > max) {
        throw new IOException(key + " has " + length + " bytes, more than the " + max + " allowed");
      }
      ByteBuffer buf = ByteBuffer.allocate((int) length);
      file.readFully(buf, 0);
      return Arrays.copyOf(buf.array(), buf.position());
    }
  }
}
