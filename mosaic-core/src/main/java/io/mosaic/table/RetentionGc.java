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
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
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

  /**
   * A file gc may delete: its id (what {@code references} returns for it), the writer whose lease
   * guards it, when it was last written, and whether it is hidden (a backend's temporary file).
   */
  public record DataFile(String id, String writer, long modifiedMillis, boolean hidden) {}

  /** Where a table's data files are: its segment folders, on one storage or on many devices. */
  public interface DataFiles {
    List<DataFile> list() throws IOException;

    /** Deletes the file; true when this call deleted it. */
    boolean delete(DataFile file) throws IOException;
  }

  private final VersionLog log;
  private final Retention retention;
  private final Function<byte[], Collection<String>> references;
  private final DataFiles data;
  private final Clock clock;

  /**
   * @param references the keys of the files a version's content refers to
   * @param dataFolders the folders of the log's storage whose files are the table's segments
   *     (walked recursively); a file's writer id is its name up to the first {@code -}
   */
  public RetentionGc(
      VersionLog log,
      Function<byte[], Collection<String>> references,
      List<String> dataFolders,
      Clock clock) {
    this(log, log.retention(), references, folders(log.storage(), dataFolders), clock);
  }

  /**
   * @param retention the log's retention, or one with another grace (gc's caller may ask for one)
   * @param references the ids of the files a version's content refers to
   */
  public RetentionGc(
      VersionLog log,
      Retention retention,
      Function<byte[], Collection<String>> references,
      DataFiles data,
      Clock clock) {
    this.log = log;
    this.retention = retention;
    this.references = references;
    this.data = data;
    this.clock = clock;
  }

  /** The files under {@code folders} of {@code storage}, by key. */
  public static DataFiles folders(Storage storage, List<String> folders) {
    List<String> roots = List.copyOf(folders);
    return new DataFiles() {
      @Override
      public List<DataFile> list() throws IOException {
        List<DataFile> files = new ArrayList<>();
        for (String folder : roots) {
          for (Storage.FileStatus f : storage.walk(folder)) {
            files.add(
                new DataFile(
                    f.key(),
                    WriterLock.idOf(f.name()),
                    f.modifiedMillis(),
                    f.name().startsWith(".")));
          }
        }
        return files;
      }

      @Override
      public boolean delete(DataFile file) throws IOException {
        return storage.delete(file.id());
      }
    };
  }

  public Report collect() throws IOException {
    Storage storage = log.storage();
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
    // The listing's times stand in for a HEAD per name (docs/format.md, "what a commit costs").
    NavigableMap<Long, Long> names = log.listedTimes();
    for (Map.Entry<Long, Long> name : names.entrySet()) {
      long v = name.getKey();
      if (v >= latest.number()) {
        continue;
      }
      Optional<byte[]> raw = log.readRaw(v);
      if (raw.isEmpty()) {
        continue; // a tombstone another gc deleted
      }
      if (VersionLog.isTombstone(raw.get())) {
        // Listed before the tombstone replaced its manifest, the name shows the manifest's time;
        // the time the retiring gc recorded is on a clock within one skew of this one.
        OptionalLong recorded = VersionLog.retiredAt(raw.get());
        long retiredAt =
            recorded.isPresent()
                ? Math.max(name.getValue(), recorded.getAsLong())
                : storage
                    .stat(log.key(v))
                    .map(Storage.FileStatus::modifiedMillis)
                    .orElse(Long.MAX_VALUE);
        if (retiredAt < start - retention.tombstones().toMillis() - skew) {
          storage.delete(log.key(v));
          tombstonesDeleted++;
        }
        continue;
      }
      Optional<byte[]> content = raw;
      // It stopped being the latest when v+1 was published. A missing v+1 is a tombstone past
      // its retention, which was retired long after: v is older than any retention.
      Long listedNext = names.get(v + 1);
      long superseded =
          listedNext != null
              ? listedNext
              : storage.stat(log.key(v + 1)).map(Storage.FileStatus::modifiedMillis).orElse(0L);
      if (superseded > start - retention.versions().toMillis() - skew || pinned.contains(v)) {
        referenced.addAll(references.apply(content.get()));
        continue;
      }
      log.retire(v);
      retired++;
      CrashPoints.reached("gc-mid-tombstone");
    }

    // A hidden file is a backend's temporary one, written and renamed within moments by a live
    // process; at least a lease's time is left to it, as a dead writer's files get.
    long leftoversBefore =
        start - Math.max(retention.grace().toMillis(), retention.lease().toMillis()) - skew;
    List<DataFile> garbage = new ArrayList<>();
    List<DataFile> leftovers = new ArrayList<>();
    Map<String, Optional<Long>> leases = new HashMap<>();
    for (DataFile f : data.list()) {
      if (f.hidden()) {
        if (f.modifiedMillis() < leftoversBefore) {
          leftovers.add(f);
        }
        continue;
      }
      if (referenced.contains(f.id())) {
        continue;
      }
      Optional<Long> expiry =
          leases.computeIfAbsent(f.writer(), w -> leaseExpiry(storage, writerLease(w)));
      long now = clock.millis();
      boolean dead =
          expiry.isPresent()
              ? expiry.get() < now - skew
              : f.modifiedMillis() < start - retention.grace().toMillis() - skew;
      if (dead) {
        garbage.add(f);
      }
    }
    // A dead writer's files are claimed before the second look: a commit claims its writers
    // before it publishes, so once gc holds the claim no version naming them can appear after
    // the second look. A writer a commit claimed first keeps its files until that claim is older
    // than the tombstone retention (deleteOldClaims), by when a commit that made it and has not
    // published is refused for its stale base (docs/format.md, "Commits without POSIX locks").
    int claimsDeleted = deleteOldClaims(storage, skew); // first, so their writers' files go now
    Map<String, Boolean> reaped = new HashMap<>();
    garbage.removeIf(f -> !reaped.computeIfAbsent(f.writer(), w -> WriterClaims.forGc(log, w)));
    // Versions newer than the first look are read now; any version published later builds on one
    // of them, and a change never names a segment its base does not.
    VersionLog.Version now = log.latest();
    for (long v = latest.number() + 1; v <= now.number(); v++) {
      try {
        log.read(v).ifPresent(c -> referenced.addAll(references.apply(c)));
      } catch (TableNotFoundException e) {
        // retired and deleted by another gc: past every retention
      }
    }
    int files = 0;
    for (DataFile f : garbage) {
      if (!referenced.contains(f.id()) && data.delete(f)) {
        files++;
        CrashPoints.reached("gc-mid-delete");
      }
    }
    for (DataFile f : leftovers) {
      if (data.delete(f)) {
        files++;
      }
    }
    int leasesDeleted = deleteExpiredLeases(storage, skew) + claimsDeleted;
    files += deleteLeftovers(storage, leftoversBefore);
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
  private int deleteExpiredLeases(Storage storage, long skew) throws IOException {
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
   * Deletes claims older than the tombstone retention: a commit that claimed longer ago than that
   * is refused for its stale base, and a writer gc claimed has had its files deleted since.
   */
  private int deleteOldClaims(Storage storage, long skew) throws IOException {
    long before = clock.millis() - skew - retention.tombstones().toMillis();
    int deleted = 0;
    for (Storage.FileStatus f : storage.list(StorageKeys.join(log.prefix(), WriterClaims.CLAIMS))) {
      if (!f.name().startsWith(".") && f.modifiedMillis() < before && storage.delete(f.key())) {
        deleted++;
      }
    }
    return deleted;
  }

  /**
   * Deletes hidden files older than the grace: what a backend's atomic create or replace left when
   * its process died ({@link io.mosaic.storage.LocalStorage}'s {@code .tmp-} files). No version or
   * lease names a hidden file, and none is written for longer than the grace. (The data files' own
   * leftovers are {@link DataFiles}' hidden files.)
   */
  private int deleteLeftovers(Storage storage, long before) throws IOException {
    List<String> folders = new ArrayList<>();
    folders.add(StorageKeys.join(log.prefix(), VersionLog.MANIFESTS));
    folders.add(StorageKeys.join(log.prefix(), Lease.READERS));
    folders.add(StorageKeys.join(log.prefix(), Lease.WRITERS));
    folders.add(StorageKeys.join(log.prefix(), WriterClaims.CLAIMS));
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
}
