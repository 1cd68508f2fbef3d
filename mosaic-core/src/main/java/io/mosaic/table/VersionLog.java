package io.mosaic.table;

import io.mosaic.MosaicException;
import io.mosaic.storage.Storage;
import io.mosaic.storage.StorageKeys;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
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
   * The latest version: from the hint, {@code stat} the next names until one is missing, then read
   * the last. Names from the hint's version up are never deleted (gc deletes only tombstones below
   * the hint it writes), so the probe cannot stop early; a missing or stale hint whose version is
   * gone falls back to listing once. The latest version is never a tombstone (gc retires only older
   * ones), but it may be retired between the probe and the read: then a newer one exists and the
   * probe runs again.
   */
  public Version latest() {
    boolean list = false;
    while (true) {
      long readAt = clock.millis();
      Optional<Long> hint = list ? Optional.empty() : readHint();
      long from = hint.isPresent() ? hint.get() : newestListed();
      long last = probeFrom(from);
      try {
        Optional<byte[]> content = read(last);
        if (content.isPresent()) {
          return new Version(last, content.get(), readAt);
        }
      } catch (TableNotFoundException e) {
        if (hint.isEmpty() || last != from) {
          throw e;
        }
        list = true; // the hint names a version gc deleted (a late writer put an old hint back)
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

  private long probeFrom(long from) {
    long last = from;
    try {
      while (storage.isFile(key(last + 1))) {
        last++;
      }
    } catch (IOException e) {
      throw MosaicException.io("cannot find the latest version of table " + table, e);
    }
    return last;
  }

  private Optional<Long> readHint() {
    try {
      byte[] bytes = readSmall(storage, hintKey(), 32);
      return Optional.of(Long.parseLong(new String(bytes, StandardCharsets.UTF_8).trim()));
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
    byte[] bytes;
    try {
      try {
        bytes = readSmall(storage, key(version), MAX_BYTES);
      } catch (NoSuchFileException e) {
        throw e;
      } catch (IOException e) {
        // On HDFS a read racing gc's replace by a tombstone fails ("Blocklist ... has changed");
        // read again, which sees the tombstone.
        bytes = readSmall(storage, key(version), MAX_BYTES);
      }
    } catch (NoSuchFileException e) {
      throw new TableNotFoundException(
          "table " + table + " has no version " + version + " (" + key(version) + ")");
    } catch (IOException e) {
      throw MosaicException.io("cannot read version " + version + " of table " + table, e);
    }
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
    List<Long> versions = new ArrayList<>();
    for (Storage.FileStatus f : storage.list(StorageKeys.join(prefix, MANIFESTS))) {
      Matcher m = NAME.matcher(f.name());
      if (m.matches()) {
        versions.add(Long.parseLong(m.group(1)));
      }
    }
    versions.sort(null);
    return versions;
  }

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
