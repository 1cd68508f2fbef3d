package io.mosaic.table;

import io.mosaic.storage.Storage;
import io.mosaic.storage.StorageKeys;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * gc of a {@link VersionLog} with no global lock (docs/format.md, "Commits without POSIX locks"):
 * what it may delete follows from times alone. It retires (tombstones) a version once it has not
 * been the latest for the version retention and no reader lease holds it; deletes a tombstone after
 * the tombstone retention; and deletes a file only when no version inside the retention refers to
 * it and its writer's lease has expired (or it has none and is older than the grace). Several may
 * run at once, and any may be killed at any point: each step is idempotent.
 */
public final class RetentionGc {
  private static final Pattern READER = Pattern.compile("v(\\d{20})-.*");

  /** What one pass did. */
  public record Report(long latest, int retired, int tombstonesDeleted, int files, int leases) {}

  private final VersionLog log;
  private final Function<byte[], Collection<String>> references;
  private final List<String> dataFolders;
  private final Clock clock;

  /**
   * @param references the keys of the files a version's content refers to
   * @param dataFolders the folders whose files are the table's segments (walked recursively); a
   *     file's writer id is its name up to the first {@code -}
   */
  public RetentionGc(
      VersionLog log,
      Function<byte[], Collection<String>> references,
      List<String> dataFolders,
      Clock clock) {
    this.log = log;
    this.references = references;
    this.dataFolders = List.copyOf(dataFolders);
    this.clock = clock;
  }

  public Report collect() throws IOException {
    Storage storage = log.storage();
    Retention retention = log.retention();
    long skew = retention.skew().toMillis();
    long start = clock.millis();
    VersionLog.Version latest = log.latest();
    // Tombstones are deleted only below the hint gc writes, so the forward probe from any hint a
    // reader may read next never meets a deleted name.
    log.writeHint(latest.number());

    Set<String> referenced = new HashSet<>(references.apply(latest.content()));
    Set<Long> pinned = readerLeases(storage, start, skew);
    int retired = 0;
    int tombstonesDeleted = 0;
    for (long v : log.listed()) {
      if (v >= latest.number()) {
        continue;
      }
      Optional<byte[]> content;
      try {
        content = log.read(v);
      } catch (TableNotFoundException e) {
        continue; // a tombstone another gc deleted
      }
      if (content.isEmpty()) {
        Optional<Storage.FileStatus> tomb = storage.stat(log.key(v));
        if (tomb.isPresent()
            && tomb.get().modifiedMillis() < start - retention.tombstones().toMillis() - skew) {
          storage.delete(log.key(v));
          tombstonesDeleted++;
        }
        continue;
      }
      // It stopped being the latest when v+1 was published. A missing v+1 is a tombstone past
      // its retention, which was retired long after: v is older than any retention.
      long superseded =
          storage.stat(log.key(v + 1)).map(Storage.FileStatus::modifiedMillis).orElse(0L);
      if (superseded > start - retention.versions().toMillis() - skew || pinned.contains(v)) {
        referenced.addAll(references.apply(content.get()));
        continue;
      }
      log.retire(v);
      retired++;
      CrashPoints.reached("gc-mid-tombstone");
    }

    List<String> garbage = new ArrayList<>();
    Map<String, Optional<Long>> leases = new HashMap<>();
    for (String folder : dataFolders) {
      for (Storage.FileStatus f : walk(storage, folder)) {
        if (referenced.contains(f.key())) {
          continue;
        }
        String name = f.name();
        String writer = name.indexOf('-') < 0 ? name : name.substring(0, name.indexOf('-'));
        Optional<Long> expiry =
            leases.computeIfAbsent(writer, w -> leaseExpiry(storage, writerLease(w)));
        long now = clock.millis();
        boolean dead =
            expiry.isPresent()
                ? expiry.get() < now - skew
                : f.modifiedMillis() < start - retention.grace().toMillis() - skew;
        if (dead) {
          garbage.add(f.key());
        }
      }
    }
    // A writer publishes only while its lease is live, so whatever it published with a file now
    // found dead was published before that finding; versions newer than the first look are read
    // now, and any version published later builds on one of them.
    VersionLog.Version now = log.latest();
    for (long v = latest.number() + 1; v <= now.number(); v++) {
      try {
        log.read(v).ifPresent(c -> referenced.addAll(references.apply(c)));
      } catch (TableNotFoundException e) {
        // retired and deleted by another gc: past every retention
      }
    }
    int files = 0;
    for (String key : garbage) {
      if (!referenced.contains(key) && storage.delete(key)) {
        files++;
        CrashPoints.reached("gc-mid-delete");
      }
    }
    int leasesDeleted = deleteExpiredLeases(storage, retention, skew);
    files += deleteLeftovers(storage, start - retention.grace().toMillis() - skew);
    return new Report(now.number(), retired, tombstonesDeleted, files, leasesDeleted);
  }

  private String writerLease(String writer) {
    return StorageKeys.join(log.prefix(), Lease.WRITERS + "/" + writer);
  }

  private static Optional<Long> leaseExpiry(Storage storage, String key) {
    try {
      return Lease.expiry(storage, key);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot read lease " + key, e);
    }
  }

  /** The versions readers hold with a live lease. */
  private Set<Long> readerLeases(Storage storage, long now, long skew) throws IOException {
    Set<Long> pinned = new HashSet<>();
    for (Storage.FileStatus f : storage.list(StorageKeys.join(log.prefix(), Lease.READERS))) {
      Matcher m = READER.matcher(f.name());
      if (m.matches()) {
        Optional<Long> expiry = Lease.expiry(storage, f.key());
        if (expiry.isPresent() && expiry.get() >= now - skew) {
          pinned.add(Long.parseLong(m.group(1)));
        }
      }
    }
    return pinned;
  }

  /**
   * Deletes reader leases past expiry and writer leases expired for longer than the grace: by then
   * their unreferenced files are older than the grace too, so losing the lease changes nothing.
   */
  private int deleteExpiredLeases(Storage storage, Retention retention, long skew)
      throws IOException {
    int deleted = 0;
    long now = clock.millis();
    for (String folder : List.of(Lease.READERS, Lease.WRITERS)) {
      long after = folder.equals(Lease.READERS) ? skew : skew + retention.grace().toMillis();
      for (Storage.FileStatus f : storage.list(StorageKeys.join(log.prefix(), folder))) {
        if (f.name().startsWith(".")) {
          continue; // a lease being created (a backend's temporary file): deleteLeftovers' part
        }
        Optional<Long> expiry = Lease.expiry(storage, f.key());
        if (expiry.isPresent() && expiry.get() < now - after && storage.delete(f.key())) {
          deleted++;
        }
      }
    }
    return deleted;
  }

  /**
   * Deletes hidden files older than the grace: what a backend's atomic create or replace left when
   * its process died ({@link io.mosaic.storage.LocalStorage}'s {@code .tmp-} files). No version or
   * lease names a hidden file, and none is written for longer than the grace.
   */
  private int deleteLeftovers(Storage storage, long before) throws IOException {
    List<String> folders = new ArrayList<>(dataFolders);
    folders.add(StorageKeys.join(log.prefix(), VersionLog.MANIFESTS));
    folders.add(StorageKeys.join(log.prefix(), Lease.READERS));
    folders.add(StorageKeys.join(log.prefix(), Lease.WRITERS));
    int deleted = 0;
    for (String folder : folders) {
      for (Storage.FileStatus f : storage.list(folder)) {
        if (!f.folder()
            && f.name().startsWith(".")
            && f.modifiedMillis() < before
            && storage.delete(f.key())) {
          deleted++;
        }
      }
    }
    return deleted;
  }

  private static List<Storage.FileStatus> walk(Storage storage, String folder) throws IOException {
    List<Storage.FileStatus> files = new ArrayList<>();
    for (Storage.FileStatus f : storage.list(folder)) {
      if (f.folder()) {
        files.addAll(walk(storage, f.key()));
      } else if (!f.name().startsWith(".")) {
        files.add(f);
      }
    }
    return files;
  }
}
