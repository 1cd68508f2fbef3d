package io.mosaic.table;

import io.mosaic.MosaicException;
import io.mosaic.device.Device;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.DeletedRows;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.SegmentStamp;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;

/**
 * Commits new versions of a table: appends, overwrites, maintenance changes and rollbacks. A
 * version is published create-if-absent ({@link TableVersions#publish}); a commit that loses the
 * race rebases onto the winner and retries, so concurrent commits never lose each other's data.
 */
final class TableCommitter {
  private static final int MAX_COMMIT_ATTEMPTS = 20;

  private final MosaicTable table;
  private final TableVersions manifests;

  /**
   * The whole-file checksums of new segments this committer restamped in place and has not yet
   * published. A restamp whose file already says the wanted row group changes nothing and returns
   * the checksum it was given, so a commit that stamped a file, lost its race and is retried by a
   * later call (a compaction commits again after rewriting appends) must be given the restamped
   * file's checksum, not its writer's.
   */
  private final Map<String, String> restamped = new java.util.concurrent.ConcurrentHashMap<>();

  TableCommitter(MosaicTable table, TableVersions manifests) {
    this.table = table;
    this.manifests = manifests;
  }

  /**
   * Publishes the content of version {@code to} (schema, properties, rows and segments) as a new
   * version, numbered after the newest manifest file, readable or not: the way back from a damaged
   * newest manifest, which is kept as a (harmless) older version and is moved to {@code
   * _manifests/_damaged/} by gc. Refused if a segment of {@code to} is gone.
   */
  Manifest rollback(long to) {
    Manifest target = table.version(to);
    if (table.lockFree()) {
      return publishLockFree(
          newest -> {
            Manifest next = rollbackTo(target, newest.number(), to);
            checkRollbackSegments(target, to);
            return next;
          });
    }
    for (int attempt = 1; ; attempt++) {
      List<Long> versions = table.versions();
      Manifest next = rollbackTo(target, versions.get(versions.size() - 1), to);
      try (CommitGate.Hold hold = CommitGate.shared(table.root())) {
        checkRollbackSegments(target, to);
        if (manifests.publish(next)) {
          return next;
        }
      }
      if (attempt == MAX_COMMIT_ATTEMPTS) {
        throw new TableConflictException(
            "rollback of table "
                + table.name()
                + " lost "
                + attempt
                + " races in a row; try again");
      }
    }
  }

  /** Version {@code to}'s content as the version after {@code newest}. */
  private Manifest rollbackTo(Manifest target, long newest, long to) {
    if (newest == to) {
      throw MosaicException.invalid(
          "v"
              + to
              + " is already the newest version of table "
              + table.name()
              + "; nothing to undo");
    }
    Manifest next =
        new Manifest(
            target.tableId(),
            newest + 1,
            "rollback",
            Instant.now(),
            target.schema(),
            target.properties(),
            target.rowGroups(),
            target.segments(),
            target.deletions());
    next.validate();
    return next;
  }

  /** Refuses a rollback to {@code target} when one of its segments is gone. */
  private void checkRollbackSegments(Manifest target, long to) {
    for (SegmentEntry s : target.segments()) {
      String file;
      boolean exists;
      try {
        Device device = table.pool().device(s.device());
        file = device.where(s.path());
        exists = device.storage().stat(s.path()).isPresent();
      } catch (MosaicException e) {
        throw new CorruptTableException(
            "cannot roll back table " + table.name() + " to v" + to + ": " + e.getMessage(), e);
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot roll back table " + table.name() + " to v" + to + ": " + e.getMessage(), e);
      }
      if (!exists) {
        throw new CorruptTableException(
            "cannot roll back table "
                + table.name()
                + " to v"
                + to
                + ": its segment "
                + file
                + " of column "
                + s.column()
                + " on device '"
                + s.device()
                + "' is gone (deleted by gc once v"
                + to
                + " was no longer kept); roll back to a later version");
      }
    }
  }

  /**
   * Publishes {@code next(newest version)} with the lock-free protocol ({@link VersionLog#commit}):
   * a lost race reads the latest version and builds the next one again.
   */
  private Manifest publishLockFree(java.util.function.Function<VersionLog.Version, Manifest> next) {
    LockFreeVersions versions = table.lockFreeVersions();
    VersionLog log = versions.log();
    java.util.function.Function<VersionLog.Version, byte[]> apply =
        at -> LockFreeVersions.encode(next.apply(at));
    // The base is the version this table last read or published, while it is young enough to
    // commit on: no lookup first, and a newer version costs a lost race (docs/format.md, "Commits
    // without POSIX locks", what a commit costs). A change refused on that base may apply to the
    // latest, so it is tried there before the refusal stands.
    java.util.Optional<VersionLog.Version> recent = log.recent();
    if (recent.isPresent()) {
      try {
        return versions.decode(log.commit(recent.get(), apply, List.of(), null).version());
      } catch (TableConflictException e) {
        // read the latest and apply the change there
      }
    }
    return versions.decode(log.commit(log.latest(), apply, List.of(), null).version());
  }

  /** Appends the rows of all results in one new version (an empty list commits nothing). */
  Manifest append(List<WriteResult> results) {
    return commit("append", base -> withResults(base, base.rowGroups(), base.segments(), results));
  }

  /** Replaces all rows with those of the results, in one new version. */
  Manifest overwrite(List<WriteResult> results) {
    return commit("overwrite", base -> withResults(base, List.of(), List.of(), results));
  }

  /** Removes all rows in one new version; the schema and properties stay. */
  Manifest truncate() {
    return commit("truncate", base -> withResults(base, List.of(), List.of(), List.of()));
  }

  /** Operations whose versions number their row groups afresh: deletions of before do not apply. */
  static final Set<String> RENUMBERING =
      Set.of("overwrite", "truncate", "rollback", "optimize", "sort");

  /**
   * Deletes rows of version {@code baseVersion} and appends {@code inserted}, in one new version (a
   * DELETE, UPDATE or MERGE; docs/format.md, "Deletion vectors"). A newer latest version is built
   * on when nothing since the base renumbered the row groups or deleted rows of a row group this
   * change deletes from; otherwise the change is refused as a conflict, since applying it would
   * lose that change or, for an UPDATE, insert the updated row twice.
   */
  Manifest changeRows(
      String operation,
      long baseVersion,
      Map<Integer, DeletedRows> deleted,
      List<WriteResult> inserted) {
    return changeRows(operation, baseVersion, deleted, inserted, null);
  }

  /**
   * As {@link #changeRows(String, long, Map, List)}; rebased on a newer version, the change also
   * deletes the rows {@code later} (when not null) matches in the row groups committed since the
   * base, so it applies as if it had read the latest version: a replace-where rebased over an
   * append replaces the appended rows it matches too (docs/format.md, "Deletion vectors").
   */
  Manifest changeRows(
      String operation,
      long baseVersion,
      Map<Integer, DeletedRows> deleted,
      List<WriteResult> inserted,
      RowCondition later) {
    return commit(
        operation,
        latest -> {
          Map<Integer, DeletedRows> all = new TreeMap<>(latest.deletions());
          if (latest.version() != baseVersion) {
            Manifest base = checkRowsUnchanged(operation, baseVersion, latest, deleted.keySet());
            int added = base.rowGroups().size();
            if (later != null && latest.rowGroups().size() > added) {
              try (TablePin pin = table.pin(latest.version())) {
                later
                    .matches(pin.manifest(), added)
                    .forEach((g, d) -> all.merge(g, d, DeletedRows::union));
              } catch (IOException e) {
                throw new UncheckedIOException(
                    operation + " on table " + table.name() + ": " + e.getMessage(), e);
              }
            }
          }
          Manifest next = withResults(latest, latest.rowGroups(), latest.segments(), inserted);
          deleted.forEach((g, d) -> all.merge(g, d, DeletedRows::union));
          return next.withDeletions(all);
        });
  }

  /**
   * Refuses a change of {@code baseVersion}'s rows that a commit since renumbered or deleted from;
   * returns the base version.
   */
  private Manifest checkRowsUnchanged(
      String operation, long baseVersion, Manifest latest, Set<Integer> rowGroups) {
    Manifest base;
    try {
      base = table.version(baseVersion);
    } catch (MosaicException e) {
      throw conflict(operation, baseVersion, latest, "v" + baseVersion + " is no longer readable");
    }
    for (long v = baseVersion + 1; v <= latest.version(); v++) {
      Manifest between;
      try {
        between = v == latest.version() ? latest : table.version(v);
      } catch (MosaicException e) {
        throw conflict(operation, baseVersion, latest, "v" + v + " is no longer readable");
      }
      if (RENUMBERING.contains(between.operation())) {
        throw conflict(
            operation,
            baseVersion,
            latest,
            "v" + v + " (" + between.operation() + ") rewrote its rows");
      }
    }
    for (int g : rowGroups) {
      if (!Objects.equals(base.deletedRows(g), latest.deletedRows(g))) {
        throw conflict(
            operation, baseVersion, latest, "another change deleted rows of row group " + g);
      }
    }
    return base;
  }

  private TableConflictException conflict(
      String operation, long baseVersion, Manifest latest, String why) {
    return new TableConflictException(
        operation.toUpperCase(Locale.ROOT)
            + " on table "
            + table.name()
            + " read v"
            + baseVersion
            + ", but v"
            + latest.version()
            + " is the latest and "
            + why
            + "; nothing was committed, run the statement again");
  }

  private Manifest withResults(
      Manifest base, List<Long> groups, List<SegmentEntry> segments, List<WriteResult> results) {
    List<Long> rowGroups = new ArrayList<>(groups);
    List<SegmentEntry> all = new ArrayList<>(segments);
    for (WriteResult r : results) {
      List<SegmentEntry> rebased = rebased(base.schema(), r);
      int first = rowGroups.size();
      rowGroups.addAll(r.rowGroups());
      for (SegmentEntry s : rebased) {
        all.add(s.startingAt(first + s.firstRowGroup()));
      }
    }
    Manifest next = base.next("append", rowGroups, all);
    // An overwrite or truncate starts the row groups again: the base's deletions are of rows gone.
    return groups.isEmpty() ? next.withDeletions(Map.of()) : next;
  }

  /**
   * The segments of {@code r} for {@code schema}, which an ALTER TABLE may have changed since the
   * writer started (docs/format.md, "Column ids"): matched by column id, a renamed column's
   * segments take its new name and a dropped column's are left out (gc deletes their files). A
   * column added meanwhile has no segment in {@code r}, and rows without it would break "every
   * column covers every row group", so that write is refused, to be run again.
   */
  private List<SegmentEntry> rebased(TableSchema schema, WriteResult r) {
    if (r.schema().equals(schema)) {
      return r.segments();
    }
    TableSchema written = r.schema();
    String message =
        "schema mismatch writing to table "
            + table.name()
            + ": the data has "
            + describe(written)
            + ", the table has "
            + describe(schema);
    for (int i = 0; i < schema.columns().size(); i++) {
      ColumnSpec now = schema.columns().get(i);
      ColumnSpec then = written.byId(schema.ids().get(i));
      if (then == null) {
        throw new TableConflictException(
            message
                + " (column '"
                + now.name()
                + "' was added by an ALTER TABLE while the data was written); write the data"
                + " again");
      }
      // A column widened meanwhile reads the data's narrower segments as it reads older ones.
      boolean readable = then.type().equals(now.type()) || now.type().widensFrom(then.type());
      if (!readable || then.nullable() != now.nullable()) {
        throw MosaicException.invalid(message);
      }
    }
    List<SegmentEntry> kept = new ArrayList<>();
    for (SegmentEntry s : r.segments()) {
      ColumnSpec now = schema.byId(written.idOf(s.column()));
      if (now != null) {
        kept.add(now.name().equals(s.column()) ? s : s.withColumn(now.name()));
      }
    }
    return kept;
  }

  /**
   * Commits {@code change} on the newest version (docs/format.md, "Column ids"). Adding a column to
   * a table with rows writes one segment of NULLs over its row groups, so the column covers every
   * row group as all others do and no reader needs a case for a missing segment; a lost race writes
   * it again for the winner's row groups.
   */
  Manifest alter(List<SchemaChange> changes) {
    if (changes.isEmpty()) {
      return table.latest();
    }
    try (NullSegments nulls = new NullSegments(table)) {
      return commit(
          "alter table",
          base -> {
            Manifest next = base;
            for (SchemaChange change : changes) {
              next = altered(next, change, nulls);
            }
            return next;
          });
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot alter table " + table.name() + ": " + e.getMessage(), e);
    }
  }

  private Manifest altered(Manifest base, SchemaChange change, NullSegments nulls) {
    TableSchema schema = base.schema();
    Map<String, String> props = new HashMap<>(base.properties());
    List<SegmentEntry> segments = new ArrayList<>(base.segments());
    if (change instanceof SchemaChange.AddColumn add) {
      ColumnSpec c = add.column();
      if (schema.names().stream().anyMatch(n -> n.equalsIgnoreCase(c.name()))) {
        throw MosaicException.invalid(
            "cannot add column '"
                + c.name()
                + "' to table "
                + table.name()
                + ": it already has a column of that name (names ignore case); pick another name"
                + " or rename the existing column first");
      }
      if (!c.nullable() && base.rowCount() > 0) {
        throw MosaicException.invalid(
            "cannot add NOT NULL column '"
                + c.name()
                + "' to table "
                + table.name()
                + ": its "
                + base.rowCount()
                + " rows would hold NULL in it; add the column as nullable, or add it before"
                + " writing rows");
      }
      // Properties of a dropped column of that name (placement, codec) do not carry over.
      props = renamedProperties(props, c.name(), null);
      props.putAll(add.properties());
      schema = schema.withColumn(c);
      Manifest added = base.withSchema(schema, props, segments);
      if (!base.rowGroups().isEmpty()) {
        segments.add(nulls.write(added, c));
      }
    } else if (change instanceof SchemaChange.DropColumn drop) {
      String name = schema.column(drop.name()).name();
      schema = schema.withoutColumn(name);
      segments.removeIf(s -> s.column().equals(name));
      props = renamedProperties(props, name, null);
      // The order properties name the column by its value: they go with it.
      for (String key : List.of(TableProperties.CLUSTERING, TableProperties.SORTED_BY)) {
        if (name.equals(props.get(key))) {
          props.remove(key);
        }
      }
    } else if (change instanceof SchemaChange.RenameColumn rename) {
      String from = schema.column(rename.from()).name();
      String to = rename.to();
      if (!from.equalsIgnoreCase(to)
          && schema.names().stream().anyMatch(n -> n.equalsIgnoreCase(to))) {
        throw MosaicException.invalid(
            "cannot rename column '"
                + from
                + "' of table "
                + table.name()
                + " to '"
                + to
                + "': the table already has a column of that name (names ignore case)");
      }
      schema = schema.withColumnRenamed(from, to);
      segments.replaceAll(s -> s.column().equals(from) ? s.withColumn(to) : s);
      // The placement and codec the column was given follow it (they are keyed by name).
      props = renamedProperties(props, from, to);
      for (String key : List.of(TableProperties.CLUSTERING, TableProperties.SORTED_BY)) {
        if (from.equals(props.get(key))) {
          props.put(key, to);
        }
      }
    } else if (change instanceof SchemaChange.SetColumnType set) {
      ColumnSpec c = schema.column(set.name());
      if (!c.type().equals(set.type()) && !set.type().widensFrom(c.type())) {
        throw MosaicException.unsupported(
            "cannot change column '"
                + c.name()
                + "' of table "
                + table.name()
                + " from "
                + c.type()
                + " to "
                + set.type()
                + ": Mosaic widens a type without rewriting the table only as "
                + ColumnType.WIDENINGS
                + "; for another change add a column of the new type, fill it with an UPDATE"
                + " (or CREATE TABLE ... AS SELECT with a CAST), and drop the old one");
      }
      // Segments stay as written: their Parquet type names the narrower type, which readers widen
      // (docs/format.md, "Column ids").
      schema = schema.withColumnType(c.name(), set.type());
      for (Map.Entry<String, String> e : set.properties().entrySet()) {
        if (e.getValue().isEmpty()) {
          props.remove(e.getKey());
        } else {
          props.put(e.getKey(), e.getValue());
        }
      }
    }
    return base.withSchema(schema, props, segments);
  }

  /**
   * {@code props} with column {@code from}'s properties under column {@code to}'s name, or without
   * them if {@code to} is null ({@link TableProperties#renamedKey}).
   */
  private static Map<String, String> renamedProperties(
      Map<String, String> props, String from, String to) {
    Map<String, String> result = new HashMap<>();
    props.forEach(
        (k, v) -> {
          String key = TableProperties.renamedKey(k, from, to);
          if (key != null) {
            result.put(key, v);
          }
        });
    return result;
  }

  private static String describe(TableSchema schema) {
    return "("
        + String.join(
            ", ",
            schema.columns().stream()
                .map(c -> c.name() + " " + c.type() + (c.nullable() ? "" : " not null"))
                .toList())
        + ")";
  }

  /**
   * Publishes {@code change(latest)} as the next version. If another commit wins the race, the
   * change is applied again to the new latest version (it must be a function of its base), so no
   * update is lost; a change that no longer applies throws {@link TableConflictException}.
   */
  Manifest commit(String operation, UnaryOperator<Manifest> change) {
    // Kept over calls (restamped): a commit that fails for good leaves its few entries behind.
    Map<String, String> checksums = restamped;
    if (table.lockFree()) {
      // The writers of the new segments are claimed before the segments are checked, so gc can no
      // longer delete what the check found (docs/format.md, "Commits without POSIX locks").
      Set<String> claimed = new HashSet<>();
      Manifest published =
          publishLockFree(
              newest -> {
                Manifest base = table.lockFreeVersions().decode(newest);
                Manifest next = proposed(operation, base, change);
                Set<String> added = added(base, next);
                claimWriters(next, added, claimed);
                checkNewSegmentsExist(next, added);
                return stamped(next, added, checksums);
              });
      for (String writer : claimed) {
        if (!WriterLock.openHere(writer)) {
          table.log().release(writer);
        }
      }
      published.segments().forEach(s -> restamped.remove(key(s)));
      return published;
    }
    for (int attempt = 1; ; attempt++) {
      Manifest base = table.latest();
      Manifest next = proposed(operation, base, change);
      // gc decides what is garbage under the exclusive hold: checking that the new segments exist
      // and publishing must not straddle one of its passes.
      try (CommitGate.Hold hold = CommitGate.shared(table.root())) {
        Set<String> added = added(base, next);
        checkNewSegmentsExist(next, added);
        next = stamped(next, added, checksums);
        if (manifests.publish(next)) {
          next.segments().forEach(s -> restamped.remove(key(s)));
          return next;
        }
      }
      if (attempt == MAX_COMMIT_ATTEMPTS) {
        throw new TableConflictException(
            "commit to table " + table.name() + " lost " + attempt + " races in a row; try again");
      }
      try {
        Thread.sleep(ThreadLocalRandom.current().nextInt(1, 5 * attempt));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TableConflictException("commit to table " + table.name() + " interrupted");
      }
    }
  }

  /**
   * Claims the writers of {@code next}'s new segments for this commit ({@link WriterClaims}), once
   * per writer over all attempts; refused when gc claimed one first.
   */
  private void claimWriters(Manifest next, Set<String> added, Set<String> claimed) {
    for (SegmentEntry s : next.segments()) {
      if (added.contains(key(s))) {
        String writer = WriterLock.idOf(s.path().substring(s.path().lastIndexOf('/') + 1));
        if (claimed.add(writer)) {
          table.log().claim(writer);
        }
      }
    }
  }

  /** {@code change(base)} as the version after {@code base}, checked. */
  private static Manifest proposed(
      String operation, Manifest base, UnaryOperator<Manifest> change) {
    Manifest proposed = change.apply(base);
    Manifest next =
        new Manifest(
            base.tableId(),
            base.version() + 1,
            operation,
            Instant.now(),
            proposed.schema(),
            proposed.properties(),
            proposed.rowGroups(),
            proposed.segments(),
            proposed.deletions());
    next.validate();
    return next;
  }

  /**
   * {@code next} with each new segment's file recording this table and the row groups {@code next}
   * gives it ({@link SegmentStamp}): a task's segments learn where they start only here, and a
   * clone's copies which table they belong to. {@code checksums} carries a file's checksum from one
   * attempt to the next, since a lost race renumbers the segments again.
   */
  private Manifest stamped(Manifest next, Set<String> added, Map<String, String> checksums) {
    List<SegmentEntry> segments = new ArrayList<>();
    for (SegmentEntry s : next.segments()) {
      String key = key(s);
      if (!added.contains(key)) {
        segments.add(s);
        continue;
      }
      Device device = table.pool().device(s.device());
      String file = device.where(s.path());
      String checksum;
      try {
        checksum =
            SegmentStamp.restamp(
                device.storage(),
                s.path(),
                checksums.getOrDefault(key, s.checksum()),
                next.tableId(),
                s.firstRowGroup());
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot commit to table "
                + table.name()
                + ": cannot record its row groups in new segment "
                + file
                + " on device '"
                + s.device()
                + "': "
                + e.getMessage(),
            e);
      }
      checksums.put(key, checksum);
      segments.add(s.withChecksum(checksum));
    }
    return new Manifest(
        next.tableId(),
        next.version(),
        next.operation(),
        next.committedAt(),
        next.schema(),
        next.properties(),
        next.rowGroups(),
        segments,
        next.deletions());
  }

  /**
   * A lock-free table's segment whose writer is open here under a lease that never lapsed ({@link
   * WriterLock#liveHere}): gc never took it for garbage, so it needs no lookup before the publish.
   */
  private boolean writtenUnderLiveLease(SegmentEntry s) {
    return table.lockFree()
        && WriterLock.liveHere(WriterLock.idOf(s.path().substring(s.path().lastIndexOf('/') + 1)));
  }

  /** One lookup of a file (one HEAD on S3: {@link io.mosaic.storage.Storage#isFile}). */
  private boolean exists(SegmentEntry s) {
    try {
      return table.pool().device(s.device()).storage().isFile(s.path());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot commit to table "
              + table.name()
              + ": cannot check new segment "
              + s.path()
              + " on device '"
              + s.device()
              + "': "
              + e.getMessage(),
          e);
    }
  }

  /** The keys ({@link #key}) of the segments {@code next} adds to {@code base}. */
  private static Set<String> added(Manifest base, Manifest next) {
    Set<String> old = new HashSet<>();
    base.segments().forEach(s -> old.add(key(s)));
    Set<String> added = new HashSet<>();
    for (SegmentEntry s : next.segments()) {
      if (!old.contains(key(s))) {
        added.add(key(s));
      }
    }
    return added;
  }

  private static String key(SegmentEntry s) {
    return s.device() + "/" + s.path();
  }

  private void checkNewSegmentsExist(Manifest next, Set<String> added) {
    for (SegmentEntry s : next.segments()) {
      if (added.contains(key(s)) && !writtenUnderLiveLease(s) && !exists(s)) {
        throw new CorruptTableException(
            "cannot commit to table "
                + table.name()
                + ": new segment "
                + s.path()
                + " of column "
                + s.column()
                + " is missing on device '"
                + s.device()
                + "' (removed by gc, or the device is gone)");
      }
    }
  }
}
