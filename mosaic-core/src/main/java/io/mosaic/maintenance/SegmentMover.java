package io.mosaic.maintenance;

import io.mosaic.device.Device;
import io.mosaic.device.DeviceOutputStream;
import io.mosaic.device.DeviceReadChannel;
import io.mosaic.format.Checksums;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.SegmentStamp;
import io.mosaic.maintenance.Migrator.Listener;
import io.mosaic.maintenance.Migrator.Move;
import io.mosaic.segment.SegmentReader;
import io.mosaic.segment.SegmentWriter;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableConflictException;
import io.mosaic.table.TableFolders;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Moves one segment of a table to another device for a {@link Migrator} (a {@link TableCloner}
 * copies with {@link #copyBytes} and {@link #verify} too): byte for byte when the codec stays, else
 * re-encoded with the target's codec; the new file read back and checked; a partial file deleted
 * when the move fails.
 */
final class SegmentMover {
  private static final int COPY_BUFFER = 1 << 20;

  private final MosaicTable table;

  SegmentMover(MosaicTable table) {
    this.table = table;
  }

  SegmentEntry moveSegment(
      Manifest base, Move move, String path, BufferAllocator alloc, Listener listener)
      throws IOException {
    Device source = table.pool().device(move.from().device());
    Device target = table.pool().device(move.toDevice());
    try {
      boolean copy = move.toCodec() == move.from().codec() && move.wholeSegment();
      if (copy) {
        // Copied as is: the file must be the one the manifest names (re-encoding checks too).
        SegmentReader.checkFooter(table.name(), base, source, move.from());
      }
      SegmentEntry written =
          copy
              ? copyBytes(
                  table.name(),
                  source,
                  move.from(),
                  target,
                  path,
                  null,
                  () -> listener.chunkBytes(move),
                  n -> listener.copied(move, n))
              : reencode(base, target, move, path, alloc, listener);
      verify(target, written);
      return written.startingAt(move.firstRowGroup());
    } catch (IOException | RuntimeException e) {
      if (TableFolders.deletable(target, base.tableId(), path)) {
        target.deleteFile(path);
      }
      Optional<TableConflictException> conflict = movedAway(move);
      if (conflict.isPresent()) {
        throw conflict.get();
      }
      throw e;
    }
  }

  /**
   * A source segment that a concurrent migration moved (and gc then deleted) fails to read, as if
   * damaged; the cause is the race, and planning again fixes it: a conflict, not a corrupt table.
   */
  private Optional<TableConflictException> movedAway(Move move) {
    Manifest latest;
    try {
      latest = table.latest();
    } catch (RuntimeException e) {
      return Optional.empty();
    }
    if (latest.segments().contains(move.from())) {
      return Optional.empty();
    }
    return Optional.of(
        new TableConflictException(
            "table "
                + table.name()
                + " changed during migration: segment "
                + move.from().path()
                + " of column "
                + move.column()
                + " is no longer in version "
                + latest.version()
                + "; plan the migration again"));
  }

  private static int limit(java.util.function.LongSupplier chunk) {
    return (int) Math.max(1, Math.min(COPY_BUFFER, chunk.getAsLong()));
  }

  /**
   * Copies segment {@code from} of table {@code table} byte for byte from {@code source} to {@code
   * path} on {@code target} (a migration, a clone): the copy must have the manifest's checksum and
   * size. Returns its entry, for the same row groups. A chunk of at most {@code chunk} bytes (asked
   * before each read, at most 1 MB) is copied at a time; {@code copied} is told each chunk after it
   * is read and before it is written, so a listener that paces the copy holds the write back: the
   * target never receives bytes ahead of the pace, however low the rate (docs/physical-design.md,
   * "Schedules"). A {@code patch} (a clone's new table id, or null) is applied to the bytes as they
   * are written; the copy must then have the manifest's checksum so patched.
   */
  static SegmentEntry copyBytes(
      String table,
      Device source,
      SegmentEntry from,
      Device target,
      String path,
      SegmentStamp.Patch patch,
      java.util.function.LongSupplier chunk,
      java.util.function.LongConsumer copied)
      throws IOException {
    String in = source.where(from.path());
    String checksum;
    try (DeviceReadChannel src = source.openForRead(from.path());
        DeviceOutputStream out = target.openForWrite(path)) {
      ByteBuffer buf = ByteBuffer.allocate(COPY_BUFFER);
      long position = 0;
      buf.limit(limit(chunk));
      for (int n = src.read(buf, position); n > 0; n = src.read(buf, position)) {
        copied.accept(n);
        if (patch != null) {
          patch.apply(buf.array(), n, position);
        }
        out.write(buf.array(), 0, n);
        position += n;
        buf.clear();
        buf.limit(limit(chunk));
      }
      checksum =
          patch == null ? from.checksum() : patch.checksum(from.checksum(), from.fileBytes());
      if (!out.checksum().equals(checksum) || position != from.fileBytes()) {
        throw new CorruptTableException(
            "segment "
                + in
                + " of column "
                + from.column()
                + " of table "
                + table
                + " on device '"
                + source.id()
                + "' fails its checksum: "
                + out.checksum()
                + " ("
                + position
                + " bytes), the manifest says "
                + from.checksum()
                + " ("
                + from.fileBytes()
                + " bytes"
                + (patch == null ? "" : "; " + checksum + " with the copy's table id")
                + ")");
      }
    }
    return new SegmentEntry(
        from.column(),
        target.id(),
        path,
        from.codec(),
        from.firstRowGroup(),
        from.rowGroupCount(),
        from.fileBytes(),
        from.compressedBytes(),
        from.uncompressedBytes(),
        checksum,
        from.stats(),
        from.chunkChecksums());
  }

  /**
   * Re-encodes the move's row groups with the target's codec: parquet-java decodes and encodes, row
   * group by row group (also a piece of a split segment, whose codec may stay).
   */
  private SegmentEntry reencode(
      Manifest base,
      Device target,
      Move move,
      String path,
      BufferAllocator alloc,
      Listener listener)
      throws IOException {
    ColumnSpec column = base.schema().column(move.column());
    SegmentEntry from = move.from();
    try (SegmentReader reader = new SegmentReader(table.name(), table.pool(), base, from);
        SegmentWriter writer =
            new SegmentWriter(
                column, base.tableId(), move.firstRowGroup(), target, path, move.toCodec())) {
      for (int g = 0; g < move.rowGroupCount(); g++) {
        int rowGroup = move.firstRowGroup() + g;
        try (FieldVector vector = reader.read(rowGroup, alloc)) {
          // Charged before the write, as a copy's chunk: a paced move writes no row group ahead
          // of its pace (a row group is its smallest piece, so it lands whole at its due time).
          listener.copied(move, from.fileBytes() / from.rowGroupCount());
          writer.write(vector, 0, vector.getValueCount());
          writer.endRowGroup(vector.getValueCount());
        }
      }
      return writer.finish();
    }
  }

  /** Reads the new file back from its device: what is there must be what was written. */
  static void verify(Device target, SegmentEntry written) throws IOException {
    String file = target.where(written.path());
    String actual = Checksums.ofFile(target, written.path());
    if (!actual.equals(written.checksum())) {
      throw new CorruptTableException(
          "new segment "
              + file
              + " on device '"
              + target.id()
              + "' reads back as "
              + actual
              + " but was written as "
              + written.checksum()
              + "; the device may be failing");
    }
  }

  /** Deletes the segments a failed move created (gc removes what cannot be deleted now). */
  void deleteQuietly(String tableId, List<SegmentEntry> created) {
    for (SegmentEntry s : created) {
      try {
        Device d = table.pool().device(s.device());
        if (TableFolders.deletable(d, tableId, s.path()) && d.storage().delete(s.path())) {
          d.release(s.fileBytes());
        }
      } catch (IOException e) {
        // gc removes it later
      }
    }
  }
}
