package io.mosaic.format;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.mosaic.maintenance.GarbageCollector;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MixedTable;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import io.mosaic.table.TableReader;
import io.mosaic.table.TableRoundTripTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Reads {@link MixedTable} with a given file in place of its newest manifest: opens the version
 * ({@link MosaicTable#latest}) and scans every column through one {@link Retriever} (reused, so its
 * cached footers are checked against each new manifest), within a time limit.
 */
final class ManifestProbe implements AutoCloseable {
  static final Duration LIMIT = Duration.ofSeconds(30);

  final MixedTable fixture;
  final Retriever retriever;
  final Path manifest;
  final byte[] original;

  /** What reading gave: the rows, or the refusal. */
  record Outcome(List<List<Object>> rows, CorruptTableException refused) {}

  ManifestProbe(Path dir) throws IOException {
    fixture = MixedTable.create(dir, "mixed");
    retriever = new Retriever(fixture.pool, 2, 0);
    manifest = fixture.table.manifestFile(fixture.table.latest().version());
    original = Files.readAllBytes(manifest);
  }

  MosaicTable table() {
    return fixture.table;
  }

  /** Reads the table with {@code file} as its newest manifest, then puts the original back. */
  Outcome read(byte[] file) {
    return with(file, this::read);
  }

  /**
   * Reads the table through {@link TableReader} (whole segments, checksummed: table dumps,
   * migration, sort) with {@code file} as its newest manifest.
   */
  Outcome readWhole(byte[] file) {
    return with(
        file,
        () -> {
          try (TablePin pin = fixture.table.pin();
              BufferAllocator alloc = new RootAllocator()) {
            return new Outcome(TableRoundTripTest.rows(fixture.table, pin.manifest(), alloc), null);
          } catch (CorruptTableException e) {
            return new Outcome(null, e);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  /** Runs gc without grace with {@code file} as the newest manifest: its refusal, or null. */
  RuntimeException collect(byte[] file) {
    return with(
        file,
        () -> {
          try {
            new GarbageCollector(fixture.table).collect(Duration.ZERO);
            return null;
          } catch (RuntimeException e) {
            return e;
          }
        });
  }

  /** What {@code action} gives with {@code file} as the newest manifest (then put back). */
  private <T> T with(byte[] file, Supplier<T> action) {
    try {
      Files.write(manifest, file);
      return assertTimeoutPreemptively(LIMIT, action::get);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      try {
        Files.write(manifest, original);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * Reads the table as it is: every column of every row group through the retriever, one scan per
   * column and row group on one pin, so that every segment footer is read and checked by the thread
   * that asks for the batch. A scan of several row groups or columns also looks footers up in its
   * reader threads (Scan#read schedules the next reads before it hands its chunk to the decoders);
   * a segment refused there is lost with the chunk's decode, and the consumer waits for that chunk
   * forever. That is Scan's to fix; until then this probe keeps to single-chunk scans.
   */
  Outcome read() {
    try (TablePin pin = fixture.table.pin()) {
      Manifest m = pin.manifest();
      List<List<Object>> rows = new ArrayList<>();
      for (int g = 0; g < m.rowGroups().size(); g++) {
        int first = rows.size();
        for (String column : m.schema().names()) {
          int at = first;
          try (Scan scan =
              retriever.scan(
                  fixture.table,
                  pin,
                  ScanRequest.of(List.of(column)).rowGroups(g, g + 1).recorded(false))) {
            while (scan.hasNext()) {
              for (List<Object> value : TableRoundTripTest.values(scan.next())) {
                if (at == rows.size()) {
                  rows.add(new ArrayList<>());
                }
                rows.get(at++).addAll(value);
              }
            }
          }
        }
      }
      return new Outcome(rows, null);
    } catch (CorruptTableException e) {
      return new Outcome(null, e);
    }
  }

  /** Reads the table with one scan of all columns (the engines' way). */
  List<List<Object>> scanAll() {
    List<List<Object>> rows = new ArrayList<>();
    try (Scan scan =
        retriever.scan(
            fixture.table,
            ScanRequest.of(fixture.table.latest().schema().names()).recorded(false))) {
      while (scan.hasNext()) {
        rows.addAll(TableRoundTripTest.values(scan.next()));
      }
    }
    return rows;
  }

  @Override
  public void close() {
    retriever.close();
  }
}
