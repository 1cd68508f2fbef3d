package io.mosaic.maintenance;

import io.mosaic.MosaicException;
import io.mosaic.config.ByteSize;
import io.mosaic.config.Codec;
import io.mosaic.device.Device;
import io.mosaic.device.DeviceFullException;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.table.CrashPoints;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableConflictException;
import io.mosaic.table.TableFolders;
import io.mosaic.table.TableWriter;
import io.mosaic.table.WriterLock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Applies a placement (column -> device) online (paper Section 3.4; docs/format.md, "Writing and
 * committing"): each segment that must move is copied to its new device (byte for byte when the
 * codec stays, else re-encoded with the target device's codec), its checksum verified, and a new
 * version committed per column; the old files are deleted once no pinned version refers to them.
 * Readers are never blocked: they keep reading the version they pinned.
 */
public final class Migrator {
  /**
   * One segment, or row groups {@code [firstRowGroup, firstRowGroup + rowGroupCount)} of it (a
   * range move, docs/row-ranges.md), to write to {@code toDevice}. {@code estimatedBytes} is its
   * expected size there.
   */
  public record Move(
      String column,
      SegmentEntry from,
      String toDevice,
      Codec toCodec,
      long estimatedBytes,
      int firstRowGroup,
      int rowGroupCount) {
    public Move {
      if (firstRowGroup < from.firstRowGroup()
          || rowGroupCount < 1
          || firstRowGroup + rowGroupCount > from.firstRowGroup() + from.rowGroupCount()) {
        throw new IllegalArgumentException(
            "row groups ["
                + firstRowGroup
                + ","
                + (firstRowGroup + rowGroupCount)
                + ") are not in segment "
                + from.path());
      }
    }

    /** The whole segment. */
    public Move(
        String column, SegmentEntry from, String toDevice, Codec toCodec, long estimatedBytes) {
      this(
          column,
          from,
          toDevice,
          toCodec,
          estimatedBytes,
          from.firstRowGroup(),
          from.rowGroupCount());
    }

    /** Whether the move writes the whole source segment (else the segment is split). */
    boolean wholeSegment() {
      return rowGroupCount == from.rowGroupCount();
    }

    /** The source's bytes this move reads: its share of the segment's file, by row groups. */
    public long sourceBytes() {
      return from.fileBytes() * rowGroupCount / from.rowGroupCount();
    }

    /** {@code [first:end]} of the moved row groups, as placements name ranges. */
    public String range() {
      return "[" + firstRowGroup + ":" + (firstRowGroup + rowGroupCount) + "]";
    }
  }

  /**
   * Row groups {@code fromRowGroup} to {@code toRowGroup - 1} of a column placed on a device: a
   * unit of a range-aware placement (docs/row-ranges.md).
   */
  public record RangeTarget(String column, int fromRowGroup, int toRowGroup, String device) {}

  /**
   * The moves that turn the base version into the placement, with their byte counts. {@code codecs}
   * are the columns whose codec changes on their device (a codec change, docs/physical-design.md):
   * their commit records the codec in the table property {@code column.<name>.codec}; every other
   * column a plan commits goes back to its device's codec (the property dropped).
   */
  public record Plan(String table, long baseVersion, List<Move> moves, Map<String, Codec> codecs) {
    public Plan {
      moves = List.copyOf(moves);
      codecs = Map.copyOf(codecs);
    }

    public Plan(String table, long baseVersion, List<Move> moves) {
      this(table, baseVersion, moves, Map.of());
    }

    public long bytesToRead() {
      return moves.stream().mapToLong(Move::sourceBytes).sum();
    }

    /** Estimated bytes written to each device. */
    Map<String, Long> bytesIn() {
      Map<String, Long> in = new LinkedHashMap<>();
      moves.forEach(m -> in.merge(m.toDevice(), m.estimatedBytes(), Long::sum));
      return in;
    }

    /** Bytes freed on each device once the old segments are retired. */
    Map<String, Long> bytesOut() {
      Map<String, Long> out = new LinkedHashMap<>();
      moves.forEach(m -> out.merge(m.from().device(), m.sourceBytes(), Long::sum));
      return out;
    }

    /** Human-readable listing, for a dry run. */
    public String describe() {
      StringBuilder sb = new StringBuilder();
      if (moves.isEmpty()) {
        return "table " + table + " v" + baseVersion + ": already placed so; nothing to move\n";
      }
      sb.append(
          String.format(
              Locale.ROOT, "table %s v%d: %d segment moves%n", table, baseVersion, moves.size()));
      for (Move m : moves) {
        sb.append(
            String.format(
                Locale.ROOT,
                "  %-24s %s (%s) -> %s (%s)  %s -> ~%s%n",
                m.wholeSegment() ? m.column() : m.column() + m.range(),
                m.from().device(),
                m.from().codec().configName(),
                m.toDevice(),
                m.toCodec().configName(),
                ByteSize.ofBytes(m.sourceBytes()),
                ByteSize.ofBytes(m.estimatedBytes())));
      }
      bytesIn()
          .forEach(
              (d, b) ->
                  sb.append("  into ")
                      .append(d)
                      .append(": ~")
                      .append(ByteSize.ofBytes(b))
                      .append('\n'));
      bytesOut()
          .forEach(
              (d, b) ->
                  sb.append("  out of ")
                      .append(d)
                      .append(": ")
                      .append(ByteSize.ofBytes(b))
                      .append('\n'));
      return sb.toString();
    }
  }

  /** Progress of a migration, for a person at a terminal. */
  public interface Listener {
    /**
     * {@code bytes} of {@code move} were read and are about to be written (a chunk of a copy byte
     * for byte, or a re-encoded row group, counted in source bytes): a listener that paces the move
     * may sleep here, holding the write back.
     */
    default void copied(Move move, long bytes) {}

    /** The most bytes the next chunk of a byte-for-byte copy of {@code move} may hold. */
    default long chunkBytes(Move move) {
      return Long.MAX_VALUE;
    }

    default void committed(String column, long version) {}
  }

  private final MosaicTable table;
  private final SegmentMover mover;

  public Migrator(MosaicTable table) {
    this.table = table;
    this.mover = new SegmentMover(table);
  }

  /**
   * A placement as users type it in SQL procedures ({@code 'l_comment=hdd, l_shipdate=nvme'}): an
   * ordered column {@code ->} device map. Columns and devices are checked later, by {@link #plan}.
   */
  static Map<String, String> parsePlacement(String text) {
    Map<String, String> placement = new LinkedHashMap<>();
    for (String entry : text == null ? new String[0] : text.split(",")) {
      if (entry.isBlank()) {
        continue;
      }
      int eq = entry.indexOf('=');
      if (eq < 0
          || entry.indexOf('=', eq + 1) >= 0
          || entry.substring(0, eq).isBlank()
          || entry.substring(eq + 1).isBlank()) {
        throw MosaicException.invalid(
            "placement entry '"
                + entry.strip()
                + "' must be COLUMN=DEVICE: write column=device pairs separated by commas, e.g."
                + " 'l_comment=hdd, l_shipdate=nvme'");
      }
      placement.put(entry.substring(0, eq).strip(), entry.substring(eq + 1).strip());
    }
    if (placement.isEmpty()) {
      throw MosaicException.invalid(
          "placement '"
              + (text == null ? "" : text)
              + "' names no column: give column=device pairs, e.g. 'l_comment=hdd'");
    }
    return placement;
  }

  // A row range of a column as placements write it: column[from:to], row groups from to to - 1 as
  // in a slice (docs/row-ranges.md); no comma, so it fits comma-separated lists and CSV.
  private static final java.util.regex.Pattern RANGE =
      java.util.regex.Pattern.compile("(.+)\\[(\\d{1,9}):(\\d{1,9})\\]");

  /**
   * Plans moving every column named in {@code placement} (column -> device id). A key may name a
   * row range of a column, {@code column[from:to]} (row groups from to to - 1, as a range-aware
   * placement writes them, docs/row-ranges.md); the placement is then planned by {@link
   * #planRanges}.
   */
  public Plan plan(Map<String, String> placement) {
    for (String key : placement.keySet()) {
      if (key.endsWith("]") && key.indexOf('[') > 0 && !RANGE.matcher(key).matches()) {
        throw MosaicException.invalid(
            "row range '"
                + key
                + "' is malformed: write COLUMN[FROM:TO] with row group numbers 0 <= FROM < TO"
                + " (row groups FROM to TO - 1, as in a slice), e.g. "
                + key.substring(0, key.indexOf('['))
                + "[0:4]");
      }
    }
    if (placement.keySet().stream().anyMatch(k -> RANGE.matcher(k).matches())) {
      int groups = table.latest().rowGroups().size();
      List<RangeTarget> targets = new ArrayList<>();
      placement.forEach(
          (key, device) -> {
            var m = RANGE.matcher(key);
            targets.add(
                m.matches()
                    ? new RangeTarget(
                        m.group(1).strip(),
                        Integer.parseInt(m.group(2)),
                        Integer.parseInt(m.group(3)),
                        device)
                    : new RangeTarget(key, 0, groups, device));
          });
      return planRanges(targets);
    }
    Manifest base = table.latest();
    List<Move> moves = new ArrayList<>();
    for (Map.Entry<String, String> e : placement.entrySet()) {
      String column = base.schema().column(e.getKey()).name();
      Device target = table.pool().device(e.getValue());
      Codec codec = target.spec().codec();
      for (SegmentEntry s : base.segmentsOf(column)) {
        if (!s.device().equals(target.id()) || s.codec() != codec) {
          moves.add(new Move(column, s, target.id(), codec, estimate(s, codec)));
        }
      }
    }
    return new Plan(table.name(), base.version(), moves);
  }

  /**
   * Plans a codec change (docs/physical-design.md, "Codec changes"): every segment of {@code
   * column} not stored with {@code codec} is re-encoded with it on the device it is on, and the
   * commit records the codec in the table property {@code column.<name>.codec}, so appends write it
   * too. A column already stored so has no moves.
   */
  public Plan planCodec(String column, Codec codec) {
    Manifest base = table.latest();
    String name = base.schema().column(column).name();
    List<Move> moves = new ArrayList<>();
    for (SegmentEntry s : base.segmentsOf(name)) {
      if (s.codec() != codec) {
        moves.add(new Move(name, s, s.device(), codec, estimate(s, codec)));
      }
    }
    return new Plan(table.name(), base.version(), moves, Map.of(name, codec));
  }

  /**
   * Plans a range-aware placement (docs/row-ranges.md, "Moving ranges"): each target's row groups
   * go to its device; row groups no target names stay where they are. A segment whose row groups
   * all stay is not touched; one that a boundary crosses is split, each piece (those that stay too)
   * written as a segment of its own, so that one commit per column replaces the old segment by its
   * pieces.
   */
  public Plan planRanges(List<RangeTarget> targets) {
    Manifest base = table.latest();
    int groups = base.rowGroups().size();
    Map<String, String[]> deviceOf = new LinkedHashMap<>();
    for (RangeTarget t : targets) {
      String column = base.schema().column(t.column()).name();
      Device target = table.pool().device(t.device());
      if (t.fromRowGroup() >= t.toRowGroup()) {
        throw MosaicException.invalid(
            "row range "
                + column
                + "["
                + t.fromRowGroup()
                + ":"
                + t.toRowGroup()
                + "] is "
                + (t.fromRowGroup() == t.toRowGroup() ? "empty" : "reversed")
                + ": it holds row groups FROM to TO - 1, so FROM must be below TO, e.g. "
                + column
                + "["
                + Math.min(t.fromRowGroup(), t.toRowGroup())
                + ":"
                + (Math.max(t.fromRowGroup(), t.toRowGroup())
                    + (t.fromRowGroup() == t.toRowGroup() ? 1 : 0))
                + "]");
      }
      if (t.fromRowGroup() < 0 || t.toRowGroup() > groups) {
        throw MosaicException.invalid(
            "range ["
                + t.fromRowGroup()
                + ":"
                + t.toRowGroup()
                + "] of column "
                + column
                + " is not within the "
                + groups
                + " row groups of table "
                + table.name()
                + " v"
                + base.version()
                + "; plan the placement again on the table's latest version");
      }
      String[] devices = deviceOf.computeIfAbsent(column, c -> new String[groups]);
      for (int g = t.fromRowGroup(); g < t.toRowGroup(); g++) {
        devices[g] = target.id();
      }
    }
    List<Move> moves = new ArrayList<>();
    deviceOf.forEach(
        (column, devices) -> {
          for (SegmentEntry s : base.segmentsOf(column)) {
            moves.addAll(pieces(column, s, devices));
          }
        });
    return new Plan(table.name(), base.version(), moves);
  }

  // The moves of one segment: none when every row group stays, else one per run of row groups
  // with the same target (row groups without a target stay on the segment's device).
  private List<Move> pieces(String column, SegmentEntry s, String[] devices) {
    List<Move> pieces = new ArrayList<>();
    boolean changes = false;
    int end = s.firstRowGroup() + s.rowGroupCount();
    int from = s.firstRowGroup();
    for (int g = s.firstRowGroup() + 1; g <= end; g++) {
      String device = devices[from] == null ? s.device() : devices[from];
      if (g < end && device.equals(devices[g] == null ? s.device() : devices[g])) {
        continue;
      }
      Codec codec = table.pool().device(device).spec().codec();
      changes |= !device.equals(s.device()) || codec != s.codec();
      long estimate = estimate(s, codec) * (g - from) / s.rowGroupCount();
      pieces.add(new Move(column, s, device, codec, estimate, from, g - from));
      from = g;
    }
    return changes ? pieces : List.of();
  }

  /**
   * Expected size with the target codec: the same when the codec stays; uncompressed for none;
   * otherwise the source's compressed size when it is compressed, else half the raw size (a typical
   * LZ4 ratio; zstd does better). The write path enforces the real limit.
   */
  private static long estimate(SegmentEntry s, Codec to) {
    if (to == s.codec()) {
      return s.fileBytes();
    }
    if (to == Codec.NONE) {
      return s.uncompressedBytes() + (s.fileBytes() - s.compressedBytes());
    }
    return s.codec() == Codec.NONE ? s.fileBytes() / 2 : s.fileBytes();
  }

  /** Checks every target device has room for what the plan writes there; explains if not. */
  public void checkSpace(Plan plan) throws IOException {
    for (Map.Entry<String, Long> in : plan.bytesIn().entrySet()) {
      Device d = table.pool().device(in.getKey());
      long free = d.freeBytes();
      if (in.getValue() > free) {
        throw new DeviceFullException(
            "cannot migrate table "
                + table.name()
                + ": device '"
                + d.id()
                + "' would receive ~"
                + ByteSize.ofBytes(in.getValue())
                + " but has "
                + ByteSize.ofBytes(Math.max(0, free))
                + " free (capacity "
                + d.spec().capacity()
                + ", "
                + d.usedDescription()
                + "); move fewer columns there, free space, or raise its capacity. Nothing was moved.");
      }
    }
  }

  /**
   * Executes the plan, committing one version per column. A failure (device full, checksum,
   * conflict) stops the migration: columns already committed stay moved, the column in flight stays
   * where it was, and its partial files are deleted.
   */
  public Manifest apply(Plan plan, Listener listener) throws IOException {
    checkSpace(plan);
    Map<String, List<Move>> byColumn = new LinkedHashMap<>();
    plan.moves().forEach(m -> byColumn.computeIfAbsent(m.column(), c -> new ArrayList<>()).add(m));
    Manifest latest = table.latest();
    TableFolders.requirePlainId(table, latest, "migration");
    for (Move m : plan.moves()) {
      // Refused before anything moves when this root does not own the folders it would change.
      table.claimFolder(latest.tableId(), table.pool().device(m.from().device()));
      table.claimFolder(latest.tableId(), table.pool().device(m.toDevice()));
    }
    GarbageCollector gc = new GarbageCollector(table);
    try (WriterLock lock = new WriterLock(table, "m");
        BufferAllocator alloc = new RootAllocator()) {
      int n = 0;
      for (Map.Entry<String, List<Move>> column : byColumn.entrySet()) {
        List<SegmentEntry> created = new ArrayList<>();
        try {
          for (Move move : column.getValue()) {
            String path = TableWriter.segmentPath(latest, move.column(), lock.id(), n++);
            created.add(mover.moveSegment(latest, move, path, alloc, listener));
            lock.renew(); // a lock-free table's lease: its files are garbage once it expires
            CrashPoints.reached("segment-moved");
          }
          latest = commitColumn(column.getValue(), created, plan.codecs().get(column.getKey()));
        } catch (IOException | RuntimeException e) {
          mover.deleteQuietly(latest.tableId(), created);
          throw failure(e, column.getKey());
        }
        CrashPoints.reached("column-committed");
        gc.retire(column.getValue().stream().map(Move::from).distinct().toList());
        listener.committed(column.getKey(), latest.version());
      }
    }
    return latest;
  }

  /** The migration's failure, keeping its kind, with where the table was left. */
  private IOException failure(Exception e, String column) {
    String where =
        "migration of table "
            + table.name()
            + " stopped at column "
            + column
            + "; the table is at version "
            + table.latest().version()
            + " and complete (columns committed before stay moved): ";
    if (e instanceof DeviceFullException) {
      throw new DeviceFullException(where + e.getMessage(), e);
    }
    if (e instanceof MosaicException m) {
      throw new MosaicException(m.kind(), where + e.getMessage(), e);
    }
    return new IOException(where + e.getMessage(), e);
  }

  private Manifest commitColumn(List<Move> moves, List<SegmentEntry> created, Codec override) {
    return table.commit(
        "migrate",
        base -> {
          // Each old segment is replaced by what its moves wrote: one segment, or the pieces of a
          // split in row group order (moves are planned in that order).
          Map<SegmentEntry, List<SegmentEntry>> replaced = new LinkedHashMap<>();
          for (int i = 0; i < moves.size(); i++) {
            replaced
                .computeIfAbsent(moves.get(i).from(), k -> new ArrayList<>())
                .add(created.get(i));
          }
          List<SegmentEntry> segments = new ArrayList<>(base.segments());
          for (Map.Entry<SegmentEntry, List<SegmentEntry>> r : replaced.entrySet()) {
            SegmentEntry old = r.getKey();
            int at = segments.indexOf(old);
            if (at < 0) {
              throw new TableConflictException(
                  "table "
                      + table.name()
                      + " changed during migration: segment "
                      + old.path()
                      + " of column "
                      + old.column()
                      + " is no longer in version "
                      + base.version()
                      + "; plan the migration again");
            }
            segments.remove(at);
            segments.addAll(at, r.getValue());
          }
          Manifest next = base.next("migrate", base.rowGroups(), segments);
          // A codec change records its codec for appends; a move returns the column to its
          // device's codec, as the move re-encoded it.
          Map<String, String> properties = new LinkedHashMap<>(base.properties());
          String key = MosaicTable.codecProperty(moves.get(0).column());
          if (override != null) {
            properties.put(key, override.configName());
          } else if (properties.remove(key) == null) {
            return next;
          }
          return next.withProperties(properties);
        });
  }
}
