package io.mosaic.maintenance;

import io.mosaic.MosaicException;
import io.mosaic.device.ByteSize;
import io.mosaic.device.Codec;
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
 * Applies a placement (column -> device) online (paper Section 3.4, DESIGN section 6): each segment
 * that must move is copied to its new device (byte for byte when the codec stays, else re-encoded
 * with the target device's codec), its checksum verified, and a new version committed per column;
 * the old files are deleted once no pinned version refers to them. Readers are never blocked: they
 * keep reading the version they pinned.
 */
public final class Migrator {
  /** One segment to move. {@code estimatedBytes} is its expected size on the target device. */
  public record Move(
      String column, SegmentEntry from, String toDevice, Codec toCodec, long estimatedBytes) {}

  /** The moves that turn the base version into the placement, with their byte counts. */
  public record Plan(String table, long baseVersion, List<Move> moves) {
    public Plan {
      moves = List.copyOf(moves);
    }

    public long bytesToRead() {
      return moves.stream().mapToLong(m -> m.from().fileBytes()).sum();
    }

    /** Estimated bytes written to each device. */
    public Map<String, Long> bytesIn() {
      Map<String, Long> in = new LinkedHashMap<>();
      moves.forEach(m -> in.merge(m.toDevice(), m.estimatedBytes(), Long::sum));
      return in;
    }

    /** Bytes freed on each device once the old segments are retired. */
    public Map<String, Long> bytesOut() {
      Map<String, Long> out = new LinkedHashMap<>();
      moves.forEach(m -> out.merge(m.from().device(), m.from().fileBytes(), Long::sum));
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
                m.column(),
                m.from().device(),
                m.from().codec().configName(),
                m.toDevice(),
                m.toCodec().configName(),
                ByteSize.ofBytes(m.from().fileBytes()),
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
    default void copied(Move move, long bytes) {}

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
  public static Map<String, String> parsePlacement(String text) {
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

  /** Plans moving every column named in {@code placement} (column -> device id). */
  public Plan plan(Map<String, String> placement) {
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
                + ", Mosaic data there "
                + ByteSize.ofBytes(d.usedBytes())
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
            CrashPoints.reached("segment-moved");
          }
          latest = commitColumn(column.getValue(), created);
        } catch (IOException | RuntimeException e) {
          mover.deleteQuietly(latest.tableId(), created);
          throw failure(e, column.getKey());
        }
        CrashPoints.reached("column-committed");
        gc.retire(column.getValue().stream().map(Move::from).toList());
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

  private Manifest commitColumn(List<Move> moves, List<SegmentEntry> created) {
    return table.commit(
        "migrate",
        base -> {
          List<SegmentEntry> segments = new ArrayList<>(base.segments());
          for (int i = 0; i < moves.size(); i++) {
            SegmentEntry old = moves.get(i).from();
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
            segments.set(at, created.get(i));
          }
          return base.next("migrate", base.rowGroups(), segments);
        });
  }
}
